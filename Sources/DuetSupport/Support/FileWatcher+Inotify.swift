#if canImport(Glibc)
import Foundation
import Glibc

/// The watcher on Linux: one inotify watch per folder. A folder's watch
/// follows its inode, so a folder moved out of the tree would go on reporting
/// from its new place under its old path: its watches are removed when it leaves.
extension FileWatcher {
  /// Changes, folders coming and going, the root itself (its removal or move), and the queue's overflow.
  static let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
    | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)

  /// A new watch on the folder at `absolute`; negative (errno set) when it cannot.
  func watch(_ absolute: String) -> Int32 { inotify_add_watch(queue, absolute, FileWatcher.mask) }

  /// The root's parent, for the root's name leaving it (removed or moved away).
  func watchParent() {
    let parent = (root as NSString).deletingLastPathComponent
    guard !parent.isEmpty, parent != root else { return }
    parentDescriptor = inotify_add_watch(queue, parent, UInt32(IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR))
  }

  /// Files are watched through their folder.
  func watchFile(_ path: String) {}

  func unwatch(_ descriptor: Int32) {
    _ = inotify_rm_watch(queue, descriptor)
    forget(descriptor)
  }

  /// A watch the kernel ended (`IN_IGNORED`) or duet removed.
  func forget(_ descriptor: Int32) {
    if let path = watched[descriptor], descriptors[path] == descriptor { descriptors[path] = nil }
    watched[descriptor] = nil
    if descriptor == rootDescriptor { rootDescriptor = -1 }
  }

  /// inotify's records: `struct inotify_event` (wd, mask, cookie, len) then
  /// `len` bytes of name. Sets `overflowed` and `rootWent`; returns the paths changed.
  func readInotify() -> Set<String> {
    var named = Set<String>()
    var moved = Set<String>()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(queue, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      var offset = 0
      while offset + 16 <= count {
        let (descriptor, mask, length) = buffer.withUnsafeBytes { raw in
          (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self), raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
           Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
        }
        let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
        offset += 16 + length
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true; continue }
        if descriptor == rootDescriptor && mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { rootWent = true; continue }
        let name = String(decoding: nameBytes, as: UTF8.self)
        if descriptor == parentDescriptor {
          if mask & UInt32(IN_IGNORED) != 0 { parentDescriptor = -1 }
          if name == (root as NSString).lastPathComponent && mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { rootWent = true }
          continue
        }
        if mask & UInt32(IN_IGNORED) != 0 { forget(descriptor); continue }
        guard let folder = watched[descriptor], !nameBytes.isEmpty else { continue }
        guard !isIgnored(name) else { continue }
        let path = joined(folder, name)
        guard mask & UInt32(IN_ISDIR) != 0 else {
          named.insert(path)
          continue
        }
        // A folder moved out (or removed) names the files it held; one made or moved in, those it holds.
        if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 { moved.formUnion(folderLeft(path)) }
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { moved.formUnion(folderArrived(path)) }
      }
    }
    return noted(named).union(moved)
  }
}
#endif
