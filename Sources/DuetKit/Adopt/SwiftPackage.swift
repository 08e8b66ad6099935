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
    let code = BuildScriptText.withoutComments(text)
    package.testTargets = BuildScriptText.calls(".testTarget(", in: code).compactMap { argument("name", in: $0) }
    package.pathDependencies = BuildScriptText.calls(".package(", in: code).compactMap { argument("path", in: $0) }.compactMap { relative in
      resolve(relative, from: folder)
    }
    return package
  }

  /// The string literal after `label:` in an argument list.
  static func argument(_ label: String, in arguments: String) -> String? {
    guard let range = arguments.range(of: label + ":") else { return nil }
    return BuildScriptText.quotedStrings(in: String(arguments[range.upperBound...])).first
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
