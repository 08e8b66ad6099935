import Foundation

/// Whether a path names a program this user may run: `duet doctor` looks for
/// programs on `PATH` with it, and `duet init` keeps a script's mode.
package enum ExecutableFile {
  /// A regular file (or a link to one) that this user may run.
  package static func exists(at path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
    return access(path, X_OK) == 0
  }

  /// The first program named `name` in the absolute folders of `searchPath`
  /// (a `PATH` value), as `execvp` would find it; nil when none is.
  package static func onPath(_ name: String, searchPath: String?) -> String? {
    for folder in (searchPath ?? "").split(separator: ":") where folder.hasPrefix("/") {
      let candidate = String(folder) + (folder.hasSuffix("/") ? "" : "/") + name
      if exists(at: candidate) { return candidate }
    }
    return nil
  }
}
