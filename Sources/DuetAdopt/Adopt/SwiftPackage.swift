import Foundation
import DuetModel
import DuetSupport

/// A folder holding a `Package.swift`: its test targets and its local (`path:`)
/// dependencies, read from the manifest's text without running SwiftPM.
package struct SwiftPackage: Sendable, Equatable {
  /// The package's folder relative to the tree root, `.` for the root.
  package var path: String
  var manifestFile: String
  /// `name:` of every `.testTarget(...)`.
  var testTargets: [String] = []
  /// Folders of `.package(path: ...)` dependencies, relative to the tree root.
  var pathDependencies: [String] = []
  /// `.binaryTarget(path: ...)` paths relative to the tree root (an XCFramework
  /// a Gradle module builds, say), and whether any binary target is declared
  /// (by path or by URL): a binary framework links only on Apple platforms.
  package var binaryTargetPaths: [String] = []
  var hasBinaryTarget = false
  /// Whether a Swift file under `Sources/` or `Tests/` imports UIKit.
  var importsUIKit = false

  /// Why the package builds only on macOS, or nil.
  var macOSOnlyReason: String? {
    if hasBinaryTarget { return "it links a binary target (an XCFramework links only on Apple platforms)" }
    if importsUIKit { return "it imports UIKit" }
    return nil
  }

  package static func read(manifestFile: String, root: URL) -> SwiftPackage? {
    let folder = (manifestFile as NSString).deletingLastPathComponent
    var package = SwiftPackage(path: folder.isEmpty ? "." : folder, manifestFile: manifestFile)
    guard let data = (try? PathGuard.read(manifestFile, in: root)) ?? nil, let text = String(data: data, encoding: .utf8) else { return package }
    let script = BuildScript(text)
    package.testTargets = script.calls("testTarget", member: true).compactMap { BuildScript.argument("name", in: $0) }
    package.pathDependencies = script.calls("package", member: true).compactMap { BuildScript.argument("path", in: $0) }.compactMap { relative in
      resolve(relative, from: folder)
    }
    let binaries = script.calls("binaryTarget", member: true)
    package.hasBinaryTarget = !binaries.isEmpty
    package.binaryTargetPaths = binaries.compactMap { BuildScript.argument("path", in: $0) }.compactMap { resolve($0, from: folder) }
    package.importsUIKit = importsUIKit(packageFolder: folder, root: root)
    return package
  }

  /// Whether any `.swift` file under the package's `Sources/` or `Tests/`
  /// has an `import UIKit` line (read up to 64 KiB each, at most 2,000 files).
  static func importsUIKit(packageFolder: String, root: URL) -> Bool {
    var budget = 2_000
    for sub in ["Sources", "Tests"] {
      let base = root.appendingPathComponent(packageFolder.isEmpty ? sub : packageFolder + "/" + sub)
      guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { continue }
      for case let url as URL in walker where url.pathExtension == "swift" {
        budget -= 1
        if budget < 0 { return false }
        guard let handle = try? FileHandle(forReadingFrom: url) else { continue }
        let data = (try? handle.read(upToCount: 65_536)) ?? Data()
        try? handle.close()
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n") {
          let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
          // `import UIKit`, `@testable import UIKit`, `import class UIKit.UIColor`.
          if let index = words.firstIndex(of: "import"), words[(index + 1)...].contains(where: { $0 == "UIKit" || $0.hasPrefix("UIKit.") }) {
            return true
          }
        }
      }
    }
    return false
  }

  /// `relative` (a `path:` from the package in `folder`) as a folder under the
  /// root, or nil when it leaves the tree or is absolute.
  static func resolve(_ relative: String, from folder: String) -> String? {
    guard !relative.hasPrefix("/") else { return nil }
    var parts = folder.isEmpty ? [] : folder.split(separator: "/").map(String.init)
    for part in relative.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        guard !parts.isEmpty else { return nil }
        parts.removeLast()
      } else {
        parts.append(String(part))
      }
    }
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }
}
