import Foundation
import DuetSupport

/// Finds the tree a command works on: the nearest folder, from the working
/// directory up, that holds `lanes/manifest.yaml`, unless `--root` names one.
package enum TreeRoot {
  package enum Failure: Error, CustomStringConvertible, Sendable {
    case notFound(start: String)
    case notAFolder(String)

    package var description: String { line.text }

    /// A terminal line: the working directory's name, or `--root`'s, may hold
    /// `\n::error…`, and is escaped as it goes in.
    var line: TerminalLine {
      switch self {
      case .notFound(let start):
        return "no \(Manifest.defaultPath) in \(start) or any folder above it; run duet inside a tree or pass --root DIR"
      case .notAFolder(let path):
        return "--root \(path): no such folder"
      }
    }
  }

  /// The root for `override` (taken as given, resolved against `cwd`), or the
  /// nearest ancestor of `cwd` holding a manifest. `marker` lets other files count.
  package static func find(from cwd: URL, override: String?, markers: [String] = [Manifest.defaultPath]) throws(Failure) -> URL {
    var isDirectory: ObjCBool = false
    if let override {
      let url = URL(fileURLWithPath: override, relativeTo: cwd).standardizedFileURL
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw .notAFolder(override)
      }
      return url
    }
    var current = cwd.standardizedFileURL
    while true {
      for marker in markers where FileManager.default.fileExists(atPath: current.appendingPathComponent(marker).path) {
        return current
      }
      let parent = current.deletingLastPathComponent()
      if parent.path == current.path { throw .notFound(start: cwd.path) }
      current = parent
    }
  }
}
