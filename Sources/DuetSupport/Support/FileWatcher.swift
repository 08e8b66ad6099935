import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a tree that change, told by the kernel: inotify on Linux,
/// kqueue on macOS. No polling: `wait` blocks in `poll(2)` until the kernel
/// reports a change or `wake()` is called. Folders named in `ignoring` (at any
/// depth: `.duet`, `.git`, `.build`) are not watched. Paths are relative to the
/// root, `/`-separated, sorted by path bytes, each once.
public final class FileWatcher: @unchecked Sendable {
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
  }

  /// The most folders (Linux) or files and folders (macOS) watched; a bigger tree is refused.
  public static let maximumWatches = 100_000

  private let root: String
  private let ignoring: Set<String>
  private let queue: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let lock = NSLock()
  /// Watch descriptor (Linux) or open descriptor (macOS) to the path it watches, relative to the root.
  private var watched: [Int32: String] = [:]
  #if canImport(Darwin)
  /// The folders watched on macOS, with the names they held, to tell which entry changed.
  private var listings: [String: Set<String>] = [:]
  #endif

  /// The files duet itself writes while it watches (its redirected output,
  /// the timings page), by device and inode: their changes are never a change.
  private let ownFiles: Set<FileIdentity>

  /// A file's device and inode.
  public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public init(device: UInt64, inode: UInt64) {
      self.device = device
      self.inode = inode
    }

    /// The identity of the regular file open at `fd` (a redirected stdout), or nil.
    public static func of(descriptor fd: Int32) -> FileIdentity? {
      var info = stat()
      guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
      return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    static func of(path: String) -> FileIdentity? {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
  }

  /// The prefix of the temporary files duet writes beside a file it replaces.
  public static let temporaryPrefix = ".duet-tmp-"

  /// Tree-relative paths duet itself writes (a `--timings` page in the tree).
  private let ownPaths: Set<String>

  public init(root: URL, ignoring: Set<String> = [".duet", ".git", ".build"], ownFiles: Set<FileIdentity> = [],
              ownPaths: Set<String> = []) throws(Failure) {
    self.root = root.standardizedFileURL.path
    self.ignoring = ignoring
    self.ownFiles = ownFiles
    self.ownPaths = ownPaths
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { throw Failure(message: "cannot make a pipe: \(String(cString: strerror(errno)))") }
    wakeRead = pipeEnds[0]
    wakeWrite = pipeEnds[1]
    _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK)
    #if canImport(Glibc)
    queue = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    #else
    queue = kqueue()
    #endif
    guard queue >= 0 else { throw Failure(message: "cannot watch files: \(String(cString: strerror(errno)))") }
    _ = try add(folder: "")
  }

  deinit {
    #if canImport(Darwin)
    for descriptor in watched.keys { close(descriptor) }
    #endif
    close(queue)
    close(wakeRead)
    close(wakeWrite)
  }

  /// Ends a `wait` in progress, or the next one, which then returns nil.
  public func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  /// Blocks until something changes, then collects changes until `quiet`
  /// seconds pass without one (at most `longest` seconds in all), and returns
  /// them; nil once `wake()` was called.
  public func wait(quiet: Double = 0.2, longest: Double = 2) -> [String]? {
    var changed = Set<String>()
    // Events for ignored names only (a lane's log under .duet) leave nothing: wait on.
    while changed.isEmpty {
      guard block(timeout: -1) else { return nil }
      changed.formUnion(read())
    }
    let start = Date()
    while true {
      let left = longest - Date().timeIntervalSince(start)
      guard left > 0 else { break }
      guard block(timeout: Int32(min(quiet, left) * 1000)) else { return nil }
      guard hasEvents else { break }
      changed.formUnion(read())
    }
    return changed.sorted(by: Glob.precedes)
  }

  /// What changed since the last read, without blocking: the changes a run made.
  public func drain() -> [String] { read().sorted(by: Glob.precedes) }

  /// Whether the last `block` saw events waiting (false after a quiet timeout).
  private var hasEvents = false

  /// Waits in `poll(2)` for an event, a wake or `timeout` milliseconds (-1:
  /// none); false when woken or on an error.
  private func block(timeout: Int32) -> Bool {
    var fds = [pollfd(fd: queue, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
    while true {
      let count = poll(&fds, 2, timeout)
      if count < 0 && errno == EINTR { continue }
      hasEvents = count > 0 && fds[0].revents != 0
      return count >= 0 && !(count > 0 && fds[1].revents != 0)
    }
  }

  /// The paths of every event waiting, new folders watched as they appear;
  /// duet's own files and temporary files never count.
  private func read() -> Set<String> {
    lock.lock()
    defer { lock.unlock() }
    #if canImport(Glibc)
    let found = readInotify()
    #else
    let found = readKqueue()
    #endif
    return found.filter { path in
      if (path.split(separator: "/").last ?? "").hasPrefix(FileWatcher.temporaryPrefix) || ownPaths.contains(path) { return false }
      guard !ownFiles.isEmpty, let identity = FileIdentity.of(path: root + "/" + path) else { return true }
      return !ownFiles.contains(identity)
    }
  }

  private func isIgnored(_ name: String) -> Bool { ignoring.contains(name) }

  private func joined(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

  /// The folders (and on macOS the files) under `folder`, each watched; returns the files found.
  private func add(folder: String) throws(Failure) -> [String] {
    let absolute = folder.isEmpty ? root : root + "/" + folder
    guard watched.count < FileWatcher.maximumWatches else {
      throw Failure(message: "the tree has more than \(FileWatcher.maximumWatches) folders to watch")
    }
    #if canImport(Glibc)
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_ONLYDIR | IN_DONT_FOLLOW)
    let descriptor = inotify_add_watch(queue, absolute, mask)
    if descriptor < 0 && errno == ENOSPC {
      throw Failure(message: "cannot watch \(folder.isEmpty ? "the tree" : folder): the system's limit of inotify watches is reached; raise fs.inotify.max_user_watches (sysctl)")
    }
    // A folder gone before it could be watched has nothing to report.
    guard descriptor >= 0 else { return [] }
    #else
    let descriptor = watchVnode(absolute)
    guard descriptor >= 0 else { return [] }
    #endif
    watched[descriptor] = folder
    var files: [String] = []
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []
    #if canImport(Darwin)
    listings[folder] = Set(entries)
    #endif
    for name in entries.sorted() where !isIgnored(name) {
      let path = joined(folder, name)
      var info = stat()
      guard lstat(root + "/" + path, &info) == 0 else { continue }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        files += try add(folder: path)
      } else {
        files.append(path)
        #if canImport(Darwin)
        let file = watchVnode(root + "/" + path)
        if file >= 0 { watched[file] = path }
        #endif
      }
    }
    return files
  }

  #if canImport(Glibc)
  /// inotify's records: `struct inotify_event` (wd, mask, cookie, len) then `len` bytes of name.
  private func readInotify() -> Set<String> {
    var changed = Set<String>()
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
        if mask & UInt32(IN_IGNORED) != 0 { watched[descriptor] = nil; continue }
        guard let folder = watched[descriptor], !nameBytes.isEmpty else { continue }
        let name = String(decoding: nameBytes, as: UTF8.self)
        guard !isIgnored(name) else { continue }
        let path = joined(folder, name)
        if mask & UInt32(IN_ISDIR) != 0 {
          // A new folder (made or moved in) is watched, and the files already in it count as changed.
          if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { changed.formUnion((try? add(folder: path)) ?? []) }
          continue
        }
        changed.insert(path)
      }
    }
    return changed
  }
  #endif

  #if canImport(Darwin)
  /// Opens `path` for events only and registers it with the kqueue; -1 when it cannot.
  private func watchVnode(_ path: String) -> Int32 {
    let descriptor = open(path, O_EVTONLY | O_NOFOLLOW)
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

  /// A file's event names the file; a folder's, the entries made or removed in it.
  private func readKqueue() -> Set<String> {
    var changed = Set<String>()
    var events = [kevent](repeating: kevent(), count: 64)
    var timeout = timespec(tv_sec: 0, tv_nsec: 0)
    while true {
      let count = Int(Darwin.kevent(queue, nil, 0, &events, Int32(events.count), &timeout))
      guard count > 0 else { break }
      for event in events.prefix(count) {
        let descriptor = Int32(event.ident)
        guard let path = watched[descriptor] else { continue }
        if let before = listings[path] {
          let absolute = path.isEmpty ? root : root + "/" + path
          let now = Set((try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? [])
          listings[path] = now
          for name in now.subtracting(before).sorted() where !isIgnored(name) {
            let entry = joined(path, name)
            var info = stat()
            if lstat(root + "/" + entry, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
              changed.formUnion((try? add(folder: entry)) ?? [])
            } else {
              changed.insert(entry)
              let file = watchVnode(root + "/" + entry)
              if file >= 0 { watched[file] = entry }
            }
          }
          for name in before.subtracting(now) where !isIgnored(name) { changed.insert(joined(path, name)) }
        } else {
          changed.insert(path)
          if event.fflags & UInt32(NOTE_DELETE | NOTE_RENAME) != 0 {
            close(descriptor)
            watched[descriptor] = nil
          }
        }
      }
    }
    return changed
  }
  #endif
}
