import Foundation

/// A folder holding a `Package.swift`: its test targets and its local (`path:`)
/// dependencies, read from the manifest's text without running SwiftPM.
public struct SwiftPackage: Sendable, Equatable {
  /// The package's folder relative to the tree root, `.` for the root.
  public var path: String
  public var manifestFile: String
  /// `name:` of every `.testTarget(...)`.
  public var testTargets: [String] = []
  /// Folders of `.package(path: ...)` dependencies, relative to the tree root.
  public var pathDependencies: [String] = []

  static func read(manifestFile: String, root: URL) -> SwiftPackage? {
    let folder = (manifestFile as NSString).deletingLastPathComponent
    var package = SwiftPackage(path: folder.isEmpty ? "." : folder, manifestFile: manifestFile)
    guard let text = try? String(contentsOfFile: root.appendingPathComponent(manifestFile).path, encoding: .utf8) else { return package }
    let script = BuildScript(text)
    package.testTargets = script.calls("testTarget", member: true).compactMap { BuildScript.argument("name", in: $0) }
    package.pathDependencies = script.calls("package", member: true).compactMap { BuildScript.argument("path", in: $0) }.compactMap { relative in
      resolve(relative, from: folder)
    }
    return package
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
