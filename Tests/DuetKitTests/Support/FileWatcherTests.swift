import Foundation
import Testing
@testable import DuetSupport

/// The kernel's file events as `duet verify --watch` reads them.
@Suite("FileWatcher: changed files from the kernel")
struct FileWatcherTests {
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url.appendingPathComponent("src/deep"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: url.appendingPathComponent(".duet/logs"), withIntermediateDirectories: true)
    return url
  }

  func write(_ text: String, to path: String, in root: URL) throws {
    try Data(text.utf8).write(to: root.appendingPathComponent(path))
  }

  /// Edits in nested folders come back as root-relative paths, sorted, each
  /// once; a folder made after the watch began is watched, its files reported;
  /// writes under `.duet` are not reported at all.
  @Test func reportsRelativePaths() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let watcher = try FileWatcher(root: root)
    try write("a", to: "src/deep/b.swift", in: root)
    try write("a", to: "src/a.swift", in: root)
    try write("a", to: "src/a.swift", in: root)
    try write("log", to: ".duet/logs/x.log", in: root)
    #expect(watcher.wait() == ["src/a.swift", "src/deep/b.swift"])

    // A folder with nothing in it is no change; the file made in it next is one.
    try FileManager.default.createDirectory(at: root.appendingPathComponent("new"), withIntermediateDirectories: true)
    try write("x", to: "new/c.kt", in: root)
    #expect(watcher.wait() == ["new/c.kt"])
    #expect(watcher.drain() == [])
  }

  /// `wake` ends a wait that nothing else would end: it returns nil at once, and so does every later wait.
  @Test func wakeEndsTheWait() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let watcher = try FileWatcher(root: root)
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { watcher.wake() }
    let started = Date()
    #expect(watcher.wait() == nil)
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(watcher.wait() == nil)
  }
}
