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
  /// caller closes the descriptor (on `disk`).
  static func open(_ path: String, root: Int32, making: Bool, includingLast: Bool,
                   disk: any StoreDisk) -> Swift.Result<Int32?, OutputRestore.Refusal> {
    var segments = path.split(separator: "/").map(String.init)
    if !includingLast { segments.removeLast() }
    var current: Int32
    do { current = try disk.duplicate(root) } catch {
      return .failure(OutputRestore.Refusal(line: "cannot open the tree: \(error.why)"))
    }
    for (offset, segment) in segments.enumerated() {
      let walked = segments[...offset].joined(separator: "/")
      switch step(segment, in: current, making: making, walked: walked, disk: disk) {
      case .success(let next?):
        disk.close(current)
        current = next
      case .success(nil):
        disk.close(current)
        return .success(nil)
      case .failure(let why):
        disk.close(current)
        return .failure(why)
      }
    }
    return .success(current)
  }

  /// The folder `segment` in `current`, made first when missing and
  /// `making`; nil when missing and not `making`.
  private static func step(_ segment: String, in current: Int32, making: Bool, walked: String,
                           disk: any StoreDisk) -> Swift.Result<Int32?, OutputRestore.Refusal> {
    do { return .success(try disk.openFolder(segment, in: current)) } catch {
      guard error.code == ENOENT else { return refused(segment, in: current, walked: walked, failure: error, disk: disk) }
    }
    guard making else { return .success(nil) }
    do { try disk.makeFolder(segment, in: current) } catch {
      guard error.code == EEXIST else { return .failure(OutputRestore.Refusal(line: "cannot make \(walked): \(error.why)")) }
    }
    do { return .success(try disk.openFolder(segment, in: current)) } catch {
      return refused(segment, in: current, walked: walked, failure: error, disk: disk)
    }
  }

  /// Why `segment` could not be opened as a folder: what stands there instead, or the system's reason.
  private static func refused(_ segment: String, in current: Int32, walked: String, failure: DiskFailure,
                              disk: any StoreDisk) -> Swift.Result<Int32?, OutputRestore.Refusal> {
    if let info = disk.status(segment, in: current), info.kind != S_IFDIR {
      return .failure(OutputRestore.Refusal(line: "\(walked) is \(PathGuard.kindName(mode_t(info.mode))) where the outputs need a folder"))
    }
    return .failure(OutputRestore.Refusal(line: "cannot open \(walked): \(failure.why)"))
  }
}
