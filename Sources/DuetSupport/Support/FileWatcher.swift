import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a tree that change, told by the kernel: inotify on Linux,
/// kqueue on macOS. `next` blocks in `poll(2)` until the kernel reports a
/// change or `wake()` is called. Folders named in `ignoring` (at any depth:
/// `.duet`, `.git`, `.build`) are not watched. Paths are relative to the root,
/// `/`-separated, sorted by path bytes, each once.
///
/// It follows the tree where the kernel's events alone would lose it: a folder
/// moved out names the files it held (`known`, a scan of the tree kept current
/// by the events) and is watched no more; the root removed or moved away is
/// told, then looked for every half second and rescanned when it is back; an
/// overflow of the kernel's queue rescans the tree; a folder past the watch
/// limit is scanned every second instead of watched.
///
/// What makes it safe: one thread, the watch loop's, calls `next`, `drain`
/// and `snapshot`, which alone touch the watches and the scan: the state is
/// that thread's, so nothing is locked; `wake`, from any thread (a signal's),
/// only writes a byte to a pipe.
package final class FileWatcher: ChangeSource, @unchecked Sendable {
  package struct Failure: Error, CustomStringConvertible, Sendable {
    var message: String
    package var description: String { message }
  }

  /// The most folders (Linux) or files and folders (macOS) watched; a bigger tree is refused.
  static let maximumWatches = 100_000
  /// How often the folders that are scanned instead of watched are read, and a gone root looked for.
  static let scanInterval = 1.0
  static let rootInterval = 0.5

  let root: String
  let ignoring: Set<String>
  let queue: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  /// The watches allowed: `maximumWatches`, or fewer in a test standing in for the system's limit.
  let watchLimit: Int
  /// Watch descriptor (Linux) or open descriptor (macOS) to the path it watches, relative to the root.
  var watched: [Int32: String] = [:]
  /// The path watched to its descriptor (the reverse of `watched`).
  var descriptors: [String: Int32] = [:]
  /// The root's own watch: its removal or move is the tree gone.
  var rootDescriptor: Int32 = -1
  /// The root folder's device and inode when it was watched: another (or none) at its path is the tree gone.
  var rootIdentity: FileIdentity?
  /// A watch on the root's parent for the root's own name: a root removed while
  /// a process still has it open (duet's working folder) tells nothing itself.
  var parentDescriptor: Int32 = -1
  /// The tree's files as the last events and scans left them.
  var known = TreeScan()
  /// Folders past the watch limit, scanned instead of watched (with all below them).
  var scanned: Set<String> = []
  /// Folders that could not be watched since the last events were handed out, and why.
  var failures: [(folder: String, reason: String)] = []
  /// The root is gone: nothing is watched until it is back.
  var rootGone = false
  /// Set while reading the kernel's events: it lost some (overflow), or the root went.
  var overflowed = false
  var rootWent = false
  private var lastScan = DispatchTime.now().uptimeNanoseconds
  #if canImport(Darwin)
  /// The folders watched on macOS, with the names they held, to tell which entry changed.
  var listings: [String: Set<String>] = [:]
  #endif

  /// The files duet itself writes while it watches (its redirected output,
  /// the timings page), by device and inode: their changes are never a change.
  private let ownFiles: Set<FileIdentity>

  /// The prefix of the temporary files duet writes beside a file it replaces.
  package static let temporaryPrefix = ".duet-tmp-"

  /// Tree-relative paths duet itself writes (a `--timings` page in the tree).
  private let ownPaths: Set<String>

  /// `watchLimit` lowers the number of watches allowed, as a full system
  /// limit would (tests); past it at the start the tree is refused, later a
  /// folder is scanned instead.
  package init(root: URL, ignoring: Set<String> = [".duet", ".git", ".build"], ownFiles: Set<FileIdentity> = [],
              ownPaths: Set<String> = [], watchLimit: Int = FileWatcher.maximumWatches) throws(Failure) {
    self.root = root.standardizedFileURL.path
    self.ignoring = ignoring
    self.ownFiles = ownFiles
    self.ownPaths = ownPaths
    self.watchLimit = min(watchLimit, FileWatcher.maximumWatches)
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
    try add(folder: "", starting: true)
    known = TreeScan.scan("", root: self.root, ignoring: ignoring)
    watchParent()
  }

  deinit {
    #if canImport(Darwin)
    for descriptor in watched.keys { close(descriptor) }
    #endif
    close(queue)
    close(wakeRead)
    close(wakeWrite)
  }

  /// Ends a `next` in progress, or the next one, which then returns nil.
  package func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  package func next(timeout: Double?) -> [WatchEvent]? {
    let start = DispatchTime.now().uptimeNanoseconds
    while true {
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      var wait = timeout.map { max(0, $0 - elapsed) }
      let interval = rootGone ? FileWatcher.rootInterval : scanned.isEmpty ? nil : FileWatcher.scanInterval
      if let interval { wait = min(wait ?? interval, interval) }
      guard block(timeout: wait.map { Int32(($0 * 1000).rounded(.up)) } ?? -1) else { return nil }
      let events = collect()
      if !events.isEmpty { return events }
      if let timeout, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 >= timeout { return [] }
    }
  }

  package func drain() -> [WatchEvent] { collect() }

  package func snapshot() -> TreeScan? { known }

  /// Whether the last `block` saw events waiting (false after a quiet timeout).

  /// Waits in `poll(2)` for an event, a wake or `timeout` milliseconds (-1:
  /// none); false when woken or on an error.
  private func block(timeout: Int32) -> Bool {
    var fds = [pollfd(fd: queue, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
    while true {
      let count = poll(&fds, 2, timeout)
      if count < 0 && errno == EINTR { continue }
      return count >= 0 && !(count > 0 && fds[1].revents != 0)
    }
  }

  /// The events waiting, the gone root looked for, the scanned folders read
  /// when due; duet's own files and temporary files never count.
  private func collect() -> [WatchEvent] {
    overflowed = false
    rootWent = false
    #if canImport(Glibc)
    var changed = readInotify()
    #else
    var changed = readKqueue()
    #endif
    // While the root is gone, events are of the old tree (its watches ending): read and dropped.
    if rootGone { return lookForRoot() }
    if rootWent || FileWatcher.identity(of: root) != rootIdentity { return forgetTree() }
    var events: [WatchEvent] = []
    if overflowed { events.append(.overflow) }
    if overflowed || !failures.isEmpty { changed.formUnion(rescan()) }
    events += failures.map { .watchFailed(folder: $0.folder, reason: $0.reason) }
    failures = []
    changed.formUnion(scanDue())
    let shown = changed.filter { !isOwn($0) }.sorted(by: Glob.precedes)
    if !shown.isEmpty { events.append(.changed(shown)) }
    return events
  }

  /// Whether `path` is duet's own (a temporary file, the timings page, its output).
  private func isOwn(_ path: String) -> Bool {
    if (path.split(separator: "/").last ?? "").hasPrefix(FileWatcher.temporaryPrefix) || ownPaths.contains(path) { return true }
    guard !ownFiles.isEmpty, let identity = FileIdentity.of(path: root + "/" + path) else { return false }
    return ownFiles.contains(identity)
  }

  func isIgnored(_ name: String) -> Bool { ignoring.contains(name) }

  func joined(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

  /// Paths named by events: those that were known or are there now (a file
  /// made and gone again between two reads is no change).
  func noted(_ paths: Set<String>) -> Set<String> {
    paths.filter { known.update($0, root: root) }
  }

  /// A folder gone from where it was watched (moved out, removed): no longer
  /// watched, and the files it held are changed.
  func folderLeft(_ folder: String) -> [String] {
    for (descriptor, path) in watched where path == folder || path.hasPrefix(folder + "/") { unwatch(descriptor) }
    scanned = scanned.filter { $0 != folder && !$0.hasPrefix(folder + "/") }
    let gone = known.paths(under: folder)
    known.replace(under: folder, with: TreeScan())
    return gone
  }

  /// A folder made or moved in: watched, and its files changed.
  func folderArrived(_ folder: String) -> [String] {
    try? add(folder: folder, starting: false)
    let now = TreeScan.scan(folder, root: root, ignoring: ignoring)
    let changed = known.differences(to: now, under: folder)
    known.replace(under: folder, with: now)
    return changed
  }

  /// Every folder watched again (those not yet watched are added) and the
  /// tree read: what differs from what was known.
  private func rescan() -> [String] {
    try? add(folder: "", starting: false)
    let now = TreeScan.scan("", root: root, ignoring: ignoring)
    let changed = known.differences(to: now)
    known = now
    return changed
  }

  /// The folders scanned instead of watched, read once a `scanInterval` has passed.
  private func scanDue() -> [String] {
    let now = DispatchTime.now().uptimeNanoseconds
    guard !scanned.isEmpty, Double(now - lastScan) / 1e9 >= FileWatcher.scanInterval else { return [] }
    lastScan = now
    var changed: [String] = []
    for folder in scanned.sorted() {
      let found = TreeScan.scan(folder, root: root, ignoring: ignoring)
      changed += known.differences(to: found, under: folder)
      known.replace(under: folder, with: found)
    }
    return changed
  }

  /// The root went: every watch is dropped; what was known stays, to compare when it is back.
  private func forgetTree() -> [WatchEvent] {
    for descriptor in Array(watched.keys) { unwatch(descriptor) }
    scanned = []
    rootGone = true
    return [.rootGone]
  }

  /// The root made again: watched and rescanned; what it holds that differs is changed.
  private func lookForRoot() -> [WatchEvent] {
    var info = stat()
    guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return [] }
    rootGone = false
    let changed = rescan().filter { !isOwn($0) }.sorted(by: Glob.precedes)
    var events: [WatchEvent] = [.rootBack]
    events += failures.map { .watchFailed(folder: $0.folder, reason: $0.reason) }
    failures = []
    if !changed.isEmpty { events.append(.changed(changed)) }
    return events
  }

  /// `folder` and the folders under it watched (those watched already keep
  /// their watch). A watch refused for want of room: at the start the tree is
  /// refused; later the folder is scanned instead, and said.
  func add(folder: String, starting: Bool) throws(Failure) {
    guard !scanned.contains(where: { folder == $0 || folder.hasPrefix($0 + "/") }) else { return }
    let absolute = folder.isEmpty ? root : root + "/" + folder
    let descriptor = watchedAlready(folder) ?? (descriptors[folder] != nil || watched.count < watchLimit ? watch(absolute) : -2)
    if descriptor == -2 || (descriptor < 0 && errno == ENOSPC) {
      let reason = watched.count >= watchLimit && watchLimit < FileWatcher.maximumWatches
        ? "the limit of \(watchLimit) watches is reached"
        : descriptor == -2 ? "the tree has more than \(FileWatcher.maximumWatches) folders to watch"
        : "the system's limit of inotify watches is reached; raise fs.inotify.max_user_watches (sysctl)"
      if starting { throw Failure(message: "cannot watch \(folder.isEmpty ? "the tree" : folder): \(reason)") }
      scanned.insert(folder)
      failures.append((folder: folder, reason: reason))
      return
    }
    // A folder gone before it could be watched has nothing to report.
    guard descriptor >= 0 else { return }
    if let earlier = descriptors[folder], earlier != descriptor { watched[earlier] = nil }
    watched[descriptor] = folder
    descriptors[folder] = descriptor
    if folder.isEmpty {
      rootDescriptor = descriptor
      rootIdentity = FileWatcher.identity(of: root)
    }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []
    #if canImport(Darwin)
    listings[folder] = Set(entries)
    #endif
    for name in entries.sorted() where !isIgnored(name) {
      let path = joined(folder, name)
      var info = stat()
      guard lstat(root + "/" + path, &info) == 0 else { continue }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        try add(folder: path, starting: starting)
      } else {
        watchFile(path)
      }
    }
  }

  /// The descriptor watching `folder` on macOS (a second open would leak); on
  /// Linux nil, as the kernel hands back the same watch for the same folder.
  private func watchedAlready(_ folder: String) -> Int32? {
    #if canImport(Darwin)
    return descriptors[folder]
    #else
    return nil
    #endif
  }
}

extension FileWatcher {
  /// The device and inode of the folder at `path` (followed), or nil when there is none.
  static func identity(of path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// A file's device and inode.
  package struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the regular file open at `fd` (a redirected stdout), or nil.
    package static func of(descriptor fd: Int32) -> FileIdentity? {
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
}
