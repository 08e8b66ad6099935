import Foundation

/// A file duet could not read or write, named with the system's reason.
package enum FileError: Error, CustomStringConvertible, Sendable, Equatable {
  case cannotRead(String, errno: Int32)
  case cannotWrite(String, reason: String)
  case outsideTree(String)
  /// A path from a file that the path guard refuses: out of the tree, through a
  /// symbolic link, or not a regular file.
  case refused(String, reason: String)

  package var description: String {
    switch self {
    case .cannotRead(let path, let code): return "cannot read \(path): \(String(cString: strerror(code)))"
    case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
    case .outsideTree(let path): return "refusing to write \(path): it is outside the tree (no '..', absolute paths or symbolic links)"
    case .refused(let path, let reason): return "refusing \(path): \(reason)"
    }
  }
}
