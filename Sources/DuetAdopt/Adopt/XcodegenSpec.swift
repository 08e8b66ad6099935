import Foundation
import DuetSupport

/// An app described by an XcodeGen spec (`xcodegen.yml`, `project.yml`) and no
/// committed `.xcodeproj`: its lane generates the project, then tests it.
struct XcodegenSpec: Sendable, Equatable {
  /// The spec, relative to the tree root.
  var path: String
  /// The spec's `name:`, which names the generated `.xcodeproj`.
  var projectName: String
  /// The scheme to test: the first application target (XcodeGen names a
  /// target's scheme after it), else the project's name.
  var scheme: String

  /// The folder holding the spec (`.` at the root).
  var folder: String {
    let parent = (path as NSString).deletingLastPathComponent
    return parent.isEmpty ? "." : parent
  }

  static func read(_ path: String, root: URL) -> XcodegenSpec {
    let fallback = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
    let node = ((try? PathGuard.read(path, in: root)) ?? nil).flatMap { try? YAMLParser.parse($0, file: path) }
    let name = node?["name"]?.scalar ?? (fallback.isEmpty ? "App" : fallback)
    let application = node?["targets"]?.mapping?.first { $0.value["type"]?.scalar == "application" }?.key.scalar
    return XcodegenSpec(path: path, projectName: name, scheme: application ?? name)
  }

  /// `xcodegen generate --spec S && xcodebuild test -project P -scheme X -destination '…'`.
  var testCommand: String {
    let project = (folder == "." ? "" : folder + "/") + projectName + ".xcodeproj"
    let test: [ShellText] = [
      "xcodebuild", "test", "-project", ShellWord.quoted(project), "-scheme", ShellWord.quoted(scheme),
      "-destination", ShellWord.quoted(XcodeProject.destination),
    ]
    return ("xcodegen generate --spec \(path) && " + test.joined(separator: " ")).text
  }
}
