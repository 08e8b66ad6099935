import Foundation
import DuetModel
import DuetSupport

/// An Xcode project or workspace with its shared schemes: each scheme gets an
/// `xcodebuild test` lane on an iOS simulator. Only shared schemes
/// (`xcshareddata/xcschemes`) are seen, as on a clean checkout: a user's own
/// schemes are not committed.
struct XcodeProject: Sendable, Equatable {
  /// The `.xcodeproj` or `.xcworkspace`, relative to the tree root.
  var path: String
  var schemes: [String]

  var isWorkspace: Bool { path.hasSuffix(".xcworkspace") }
  /// The folder holding it (`.` at the root).
  var folder: String {
    let parent = (path as NSString).deletingLastPathComponent
    return parent.isEmpty ? "." : parent
  }

  /// The simulator every generated lane tests on; edit the lane to pick another.
  static let destination = "platform=iOS Simulator,name=iPhone 16"

  /// Every project and workspace in the tree with at least one shared scheme,
  /// sorted by path. A workspace inside a project (`project.xcworkspace`) is the
  /// project's own and is skipped.
  static func find(root: URL) -> [XcodeProject] {
    var found: [XcodeProject] = []
    ModuleDiscovery.walk(root: root) { path, name, isDirectory in
      guard isDirectory else { return false }
      guard name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") else { return true }
      let schemesFolder = root.appendingPathComponent(path).appendingPathComponent("xcshareddata/xcschemes")
      let schemes = ((try? FileManager.default.contentsOfDirectory(atPath: schemesFolder.path)) ?? [])
        .filter { $0.hasSuffix(".xcscheme") && !$0.hasPrefix(".") }
        .map { String($0.dropLast(".xcscheme".count)) }
        .sorted(by: Glob.precedes)
      if !schemes.isEmpty { found.append(XcodeProject(path: path, schemes: schemes)) }
      return false
    }
    return found.sorted { Glob.precedes($0.path, $1.path) }
  }

  /// `xcodebuild test -project App.xcodeproj -scheme App -destination '…'`.
  func testCommand(scheme: String) -> String {
    let words: [ShellText] = [
      "xcodebuild", "test", isWorkspace ? "-workspace" : "-project", ShellWord.quoted(path),
      "-scheme", ShellWord.quoted(scheme), "-destination", ShellWord.quoted(XcodeProject.destination),
    ]
    return words.joined(separator: " ").text
  }
}
