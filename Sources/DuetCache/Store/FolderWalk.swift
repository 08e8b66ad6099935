import DuetSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A walk from the tree's root descriptor to the folder that holds a path:
/// one `openat` per component with `O_DIRECTORY | O_NOFOLLOW`, so a link or a
/// file where a folder belongs is refused and never followed, whatever was
/// swapped in since the tree was looked at. A restore writes, renames and
/// removes only by descriptor and name (`renameat`, `unlinkat`, `symlinkat`).
enum FolderWalk {
  /// The folder holding `path` (tree-relative), or `path` itself with
  /// `includingLast`, opened from `root`; missing folders are made on the way
  /// when `making`, else the answer is nil (nothing there to touch). The
  /// caller closes the descriptor.
  static func open(_ path: String, root: Int32, making: Bool, includingLast: Bool) -> Swift.Result<Int32?, OutputRestore.Refusal> {
    var segments = path.split(separator: "/").map(String.init)
    if !includingLast { segments.removeLast() }
    var current = dup(root)
    guard current >= 0 else { return .failure(OutputRestore.Refusal(text: "cannot open the tree: \(String(cString: strerror(errno)))")) }
    for (offset, segment) in segments.enumerated() {
      let shown = ControlText.shown(segments[...offset].joined(separator: "/"))
      var next = openat(current, segment, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      if next < 0 && errno == ENOENT {
        guard making else {
          close(current)
          return .success(nil)
        }
        if mkdirat(current, segment, 0o755) != 0 && errno != EEXIST {
          let why = String(cString: strerror(errno))
          close(current)
          return .failure(OutputRestore.Refusal(text: "cannot make \(shown): \(why)"))
        }
        next = openat(current, segment, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      }
      guard next >= 0 else {
        let code = errno
        var info = stat()
        let kind = fstatat(current, segment, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT != S_IFDIR
        close(current)
        return .failure(OutputRestore.Refusal(text: kind ? "\(shown) is \(PathGuard.kindName(info.st_mode)) where the outputs need a folder"
                                                         : "cannot open \(shown): \(String(cString: strerror(code)))"))
      }
      close(current)
      current = next
    }
    return .success(current)
  }

  /// The kind of `name` in `folder` (`S_IFREG`, `S_IFLNK`…, not followed), 0 when there is nothing.
  static func kind(of name: String, in folder: Int32) -> (kind: mode_t, mode: mode_t) {
    var info = stat()
    guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return (0, 0) }
    return (info.st_mode & S_IFMT, info.st_mode)
  }
}
