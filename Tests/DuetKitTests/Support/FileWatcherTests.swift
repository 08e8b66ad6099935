import Foundation
import Testing
@testable import DuetSupport

/// The kernel's file events as `duet verify --watch` reads them, on real
/// folders: each test waits for the events it expects (a generous deadline),
/// never for a time.
@Suite("FileWatcher: changed files from the kernel")
struct FileWatcherTests {
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url.appendingPathComponent("src/deep"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: url.appendingPathComponent(".duet/logs"), withIntermediateDirectories: true)
    return url
  }

  func write(_ text: String, to path: String, in root: URL) throws {
    try FileManager.default.createDirectory(at: root.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: root.appendingPathComponent(path))
  }

  /// The events the watcher tells until `done` holds of them (at most 20 s).
  func events(_ watcher: FileWatcher, until done: ([WatchEvent]) -> Bool) -> [WatchEvent] {
    var told: [WatchEvent] = []
    let deadline = Date().addingTimeInterval(20)
    while !done(told) && Date() < deadline {
      guard let more = watcher.next(timeout: 0.1) else { break }
      told += more
    }
    return told
  }

  /// The paths changed in `events`, sorted, each once.
  func changed(_ events: [WatchEvent]) -> [String] {
    var paths = Set<String>()
    for case .changed(let changed) in events { paths.formUnion(changed) }
    return paths.sorted(by: Glob.precedes)
  }

  /// Edits in nested folders come back as root-relative paths, sorted, each
  /// once; a folder made after the watch began is watched, its files reported;
  /// writes under `.duet` are not reported at all.
  @Test func reportsRelativePaths() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let watcher = try FileWatcher(root: root)
    try write("log", to: ".duet/logs/x.log", in: root)
    try write("a", to: "src/deep/b.swift", in: root)
    try write("a", to: "src/a.swift", in: root)
    try write("a", to: "src/a.swift", in: root)
    #expect(changed(events(watcher) { changed($0).count >= 2 }) == ["src/a.swift", "src/deep/b.swift"])

    // A folder with nothing in it is no change; the file made in it next is one.
    try FileManager.default.createDirectory(at: root.appendingPathComponent("new"), withIntermediateDirectories: true)
    try write("x", to: "new/c.kt", in: root)
    #expect(changed(events(watcher) { !changed($0).isEmpty }) == ["new/c.kt"])
    #expect(watcher.drain() == [])
  }

  /// `wake` ends a wait that nothing else would end: it returns nil, and so does every later wait.
  @Test func wakeEndsTheWait() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let watcher = try FileWatcher(root: root)
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { watcher.wake() }
    #expect(watcher.next(timeout: nil) == nil)
    #expect(watcher.next(timeout: nil) == nil)
  }

  /// Issue 39, item 1: a folder moved out of the tree names the files it held,
  /// and is watched no more: an edit in its new place is told by no event,
  /// while an edit in the tree after it is.
  @Test func aFolderMovedOutNamesItsFilesAndIsWatchedNoMore() throws {
    let root = try folder()
    let outside = try folder()
    defer {
      try? FileManager.default.removeItem(at: root)
      try? FileManager.default.removeItem(at: outside)
    }
    try write("x", to: "src/sub/x.swift", in: root)
    try write("y", to: "src/sub/inner/y.swift", in: root)
    let watcher = try FileWatcher(root: root)
    #expect(rename(root.appendingPathComponent("src/sub").path, outside.appendingPathComponent("sub").path) == 0)
    #expect(changed(events(watcher) { changed($0).count >= 2 }) == ["src/sub/inner/y.swift", "src/sub/x.swift"])
    try write("z", to: "sub/x.swift", in: outside)
    try write("z", to: "sub/inner/new.swift", in: outside)
    try write("a", to: "src/a.swift", in: root)
    #expect(changed(events(watcher) { changed($0).contains("src/a.swift") }) == ["src/a.swift"])
  }

  /// Issue 39, item 2: the root moved away is told once; the root made again
  /// is told, rescanned (its files are changed) and watched again.
  @Test func theRootGoneAndBackIsToldAndWatchedAgain() throws {
    let root = try folder()
    let aside = root.appendingPathExtension("aside")
    defer {
      try? FileManager.default.removeItem(at: root)
      try? FileManager.default.removeItem(at: aside)
    }
    try write("a", to: "src/a.swift", in: root)
    let watcher = try FileWatcher(root: root)
    #expect(rename(root.path, aside.path) == 0)
    #expect(events(watcher) { $0.contains(.rootGone) }.filter { $0 == .rootGone } == [.rootGone])
    // Edits in the folder moved away are not the tree's.
    try write("b", to: "src/a.swift", in: aside)
    try write("new", to: "src/b.swift", in: root)
    let back = events(watcher) { $0.contains(.rootBack) && changed($0).count >= 2 }
    #expect(back.first == .rootBack, "\(back)")
    #expect(changed(back) == ["src/a.swift", "src/b.swift"], "\(back)")
    try write("c", to: "src/deep/c.swift", in: root)
    #expect(changed(events(watcher) { !changed($0).isEmpty }) == ["src/deep/c.swift"])
  }

  /// Issue 39, item 3: the kernel's queue overflows (more events than
  /// `max_queued_events` while nobody reads); the overflow is told, the tree
  /// rescanned, and a folder made while events were lost is watched after it.
  @Test func anOverflowRescansAndWatchesWhatWasLost() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let bulk = root.appendingPathComponent("bulk").path
    #expect(mkdir(bulk, 0o755) == 0)
    let watcher = try FileWatcher(root: root)
    let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
    for index in 0...limit {
      let fd = open(bulk + "/f\(index)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
      #expect(fd >= 0)
      close(fd)
    }
    try write("lost", to: "late/made.swift", in: root)
    let told = events(watcher) { $0.contains(.overflow) && changed($0).contains("late/made.swift") }
    #expect(told.contains(.overflow), "no overflow told among \(told.count) events")
    #expect(changed(told).contains("late/made.swift"), "the folder made while events were lost is not seen")
    try write("seen", to: "late/next.swift", in: root)
    #expect(changed(events(watcher) { changed($0).contains("late/next.swift") }).contains("late/next.swift"))
  }

  /// Issue 39, item 3: past the limit of watches, a new folder is told as a
  /// failed watch and scanned instead: a file written in it later is told.
  @Test func pastTheWatchLimitAFolderIsScanned() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    // The root, src and src/deep: the limit is reached at the start.
    let watcher = try FileWatcher(root: root, watchLimit: 3)
    try write("a", to: "more/a.swift", in: root)
    let failed = events(watcher) { told in told.contains { if case .watchFailed = $0 { return true } else { return false } } && !changed(told).isEmpty }
    #expect(failed.contains(.watchFailed(folder: "more", reason: "the limit of 3 watches is reached")), "\(failed)")
    #expect(changed(failed) == ["more/a.swift"], "\(failed)")
    try write("b", to: "more/deeper/b.swift", in: root)
    #expect(changed(events(watcher) { !changed($0).isEmpty }) == ["more/deeper/b.swift"])
  }
}
