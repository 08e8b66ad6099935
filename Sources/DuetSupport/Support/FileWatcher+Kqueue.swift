#if canImport(Darwin)
import Darwin
import Foundation

/// The watcher on macOS: one kqueue vnode entry per folder and per file. A
/// folder's event names no entry, so each folder's listing is kept and read
/// again to tell which names came and went.
extension FileWatcher {
  /// Opens `absolute` for events only and registers it with the kqueue; -1 when it cannot.
  func watch(_ absolute: String) -> Int32 {
    let descriptor = open(absolute, O_EVTONLY | O_NOFOLLOW)
    guard descriptor >= 0 else { return -1 }
    var change = kevent(ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                        fflags: UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME | NOTE_ATTRIB), data: 0, udata: nil)
    var timeout = timespec(tv_sec: 0, tv_nsec: 0)
    guard Darwin.kevent(queue, &change, 1, nil, 0, &timeout) >= 0 else {
      close(descriptor)
      return -1
    }
    return descriptor
  }

  /// The root's own entry tells its deletion and renaming on macOS.
  func watchParent() {}

  /// A file has an entry of its own (a write to it says nothing to its folder).
  func watchFile(_ path: String) {
    guard descriptors[path] == nil, watched.count < watchLimit else { return }
    let file = watch(root + "/" + path)
    if file >= 0 {
      watched[file] = path
      descriptors[path] = file
    }
  }

  /// Closing the descriptor removes its kqueue entry.
  func unwatch(_ descriptor: Int32) {
    close(descriptor)
    if let path = watched[descriptor] {
      if descriptors[path] == descriptor { descriptors[path] = nil }
      listings[path] = nil
    }
    watched[descriptor] = nil
    if descriptor == rootDescriptor { rootDescriptor = -1 }
  }

  /// A file's event names the file; a folder's, the entries made or removed
  /// in it. The root deleted or renamed sets `rootWent`.
  func readKqueue() -> Set<String> {
    var named = Set<String>()
    var moved = Set<String>()
    var events = [kevent](repeating: kevent(), count: 64)
    var timeout = timespec(tv_sec: 0, tv_nsec: 0)
    while true {
      let count = Int(Darwin.kevent(queue, nil, 0, &events, Int32(events.count), &timeout))
      guard count > 0 else { break }
      for event in events.prefix(count) {
        let descriptor = Int32(event.ident)
        guard let path = watched[descriptor] else { continue }
        if descriptor == rootDescriptor && event.fflags & UInt32(NOTE_DELETE | NOTE_RENAME) != 0 {
          rootWent = true
          continue
        }
        if listings[path] != nil {
          moved.formUnion(entriesChanged(in: path, named: &named))
        } else {
          named.insert(path)
          if event.fflags & UInt32(NOTE_DELETE | NOTE_RENAME) != 0 { unwatch(descriptor) }
        }
      }
    }
    return noted(named).union(moved)
  }

  /// The names that came to or left `folder` since its listing was read:
  /// files into `named`; the files of folders that came or left, returned.
  private func entriesChanged(in folder: String, named: inout Set<String>) -> Set<String> {
    let before = listings[folder] ?? []
    let absolute = folder.isEmpty ? root : root + "/" + folder
    let now = Set((try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? [])
    listings[folder] = now
    var moved = Set<String>()
    for name in now.subtracting(before).sorted() where !isIgnored(name) {
      let entry = joined(folder, name)
      var info = stat()
      if lstat(root + "/" + entry, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
        moved.formUnion(folderArrived(entry))
      } else {
        named.insert(entry)
        watchFile(entry)
      }
    }
    for name in before.subtracting(now) where !isIgnored(name) {
      let entry = joined(folder, name)
      if listings[entry] != nil { moved.formUnion(folderLeft(entry)) } else { named.insert(entry) }
    }
    return moved
  }
}
#endif
