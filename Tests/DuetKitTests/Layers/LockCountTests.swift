import Foundation
import Testing

/// Issue 54, item 6: every lock is a place where threads share state, checked
/// by hand alone. State has one owner (a thread) and is handed over as values
/// where it can be; where threads must share, one lock guards one struct.
/// Two checks:
/// - at most 40 `withLock` in `Sources/` (82 when the work began), as
///   `grep -rn withLock Sources | wc -l` counts them, definition and comments
///   included;
/// - none in the run loop's files but the named exceptions below (each with
///   why), and no lock there by any other name either. The
///   loop owns the plan, the children, their pipes and the deadlines on one
///   thread (DESIGN §12, as ninja's Builder); what other threads hand it
///   (a worker's result, Ctrl-C) travels as a value through the poller's
///   wake-up pipe, so no lane event waits on a lock another thread holds.
///   A lock renamed is still a lock: `Locked`, `NSLock`, `NSCondition`,
///   `Mutex` and pthread's mutex count as `withLock` does.
@Suite("Few locks, and none on the run loop's path")
struct LockCountTests {
  static let limit = 40
  /// The run loop and the process engine it drives: every lane event goes through them.
  static let runLoopFolders = ["DuetRun/Run", "DuetProcess"]
  static let lockNames = ["withLock", "Locked", "NSLock", "NSCondition", "Mutex", "pthread_mutex", "os_unfair_lock"]
  /// Files of those folders that do not run while the loop does, each with why.
  static let beforeTheLoop: [String: String] = [
    "DuetRun/Run/LaneCache.swift": "the cache's look-up and restore, while the session is prepared, before the loop starts a lane",
  ]
  /// Locks the run loop's files keep, each with why.
  static let allowed: [String: Set<String>] = [
    // macOS has no pipe2: without the lock a child started by another thread
    // between pipe() and FD_CLOEXEC would inherit the pipe. Linux takes none.
    "DuetProcess/ChildProcess.swift": ["NSLock"],
    // The kept worker threads (issue 54, item 9) wait for the loop's file work
    // on one queue: the loop appends a piece under the lock and wakes one.
    // Threads kept between pieces need a queue they share with the loop; a
    // hand-over without a lock (a pipe per thread) would spend descriptors a
    // starved machine needs for its lanes. The one exception, named here.
    "DuetProcess/WorkerPool.swift": ["Locked", "withLock"],
    // The list beside the wake-up pipe: a message posted when the pipe is full
    // (or none could be made) waits in a locked list the loop reads after the
    // pipe; dropping it would leave the loop waiting for work that ended, and
    // waiting for room could wait for the loop's own thread. Taken only when
    // an atomic count says a message waits there.
    "DuetProcess/SystemPoller.swift": ["Locked", "withLock"],
  ]

  /// Each `.swift` file under `Sources/<folder>`, with its lines.
  static func files(under folder: String) throws -> [(path: String, lines: [String])] {
    let root = LayerTests.sources.appendingPathComponent(folder)
    let names = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
    return try names.filter { $0.hasSuffix(".swift") }.sorted().map { name in
      (folder.isEmpty ? name : "\(folder)/\(name)",
       try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "\n"))
    }
  }

  @Test func fewInAllOfSources() throws {
    let places = try Self.files(under: "").flatMap { file in
      file.lines.enumerated().filter { $0.element.contains("withLock") }.map { "\(file.path):\($0.offset + 1)" }
    }
    #expect(places.count <= Self.limit, "\(places.count) withLock in Sources (at most \(Self.limit)): give the state one owner, hand it over as a value, or guard one struct with one lock: \(places)")
  }

  @Test func noneInTheRunLoopsFiles() throws {
    var found: [String] = []
    for folder in Self.runLoopFolders {
      for file in try Self.files(under: folder) where Self.beforeTheLoop[file.path] == nil {
        for (number, line) in file.lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
          for name in Self.lockNames where line.contains(name) && !(Self.allowed[file.path] ?? []).contains(name) {
            found.append("\(file.path):\(number + 1): \(name)")
          }
        }
      }
    }
    #expect(found == [], "the run loop's state is its own thread's; post a value to it (EventLoop.Poster) instead of sharing a locked box")
  }
}
