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
}
