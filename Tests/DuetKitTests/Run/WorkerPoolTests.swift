@testable import DuetFuzzSupport
@testable import DuetProcess
@testable import DuetRun
@testable import DuetSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The run loop's workers are kept threads: a thread made and ended per
/// attempt cost a 1,000-lane run about 80 µs a lane (tools/bench-latency).
@Suite("Worker threads are kept for the next piece of work")
struct WorkerPoolTests {
  /// The kernel's id of the calling thread (a pthread_t is reused once a thread ends; a tid is not, soon).
  static func threadID() -> Int {
    #if os(Linux)
    // "<pid>/task/<tid>"
    let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
    return Int(link.split(separator: "/").last ?? "") ?? -1
    #else
    var id: UInt64 = 0
    pthread_threadid_np(nil, &id)
    return Int(id)
    #endif
  }

  /// Runs `count` pieces one after another through `workers`, each after the
  /// last one's thread is idle again (`settled`), and returns the threads they ran on.
  static func threadsOfSequentialPieces(_ workers: AttemptWorkers, count: Int, settled: () -> Bool) -> Set<Int> {
    let seen = Locked(Set<Int>())
    for _ in 0..<count {
      let done = DispatchSemaphore(value: 0)
      workers.start {
        seen.withLock { _ = $0.insert(threadID()) }
        done.signal()
      }
      done.wait()
      _ = eventually(settled)
    }
    return seen.current
  }

  @Test func piecesOneAfterAnotherRunOnOneThread() {
    let pool = WorkerPool()
    let threads = Self.threadsOfSequentialPieces(.pool(pool), count: 50) { pool.threads.sleeping == 1 }
    #expect(threads.count == 1, "50 pieces one after another ran on \(threads.count) threads")
    #expect(pool.threads.made == 1)
  }

  @Test func theRunLoopsWorkersAreThePoolsThreads() {
    // Other tests share the process's pool, so its threads may be busy: a
    // thread per piece would still be 50 threads, the pool's a handful.
    let threads = Self.threadsOfSequentialPieces(.threads, count: 50) { true }
    #expect(threads.count <= 10, "50 pieces one after another ran on \(threads.count) threads")
  }

  @Test func aLongPieceNeverHoldsUpTheNext() {
    let pool = WorkerPool()
    let release = DispatchSemaphore(value: 0)
    let secondRan = DispatchSemaphore(value: 0)
    pool.run { release.wait() }
    pool.run { secondRan.signal() }
    // The first piece waits for the second: with one shared thread they would never end.
    #expect(secondRan.wait(timeout: .now() + 30) == .success)
    release.signal()
  }

  /// Past its limit the pool makes no thread: pieces wait for one to be free,
  /// and every one runs (a restore hands one piece per lane at once; the
  /// threads count against the same `ulimit -u` as the lanes).
  @Test func piecesPastTheLimitWaitForAThread() {
    let pool = WorkerPool(limit: 2)
    let release = DispatchSemaphore(value: 0)
    let ran = Locked(0)
    let group = DispatchGroup()
    for _ in 0..<10 {
      group.enter()
      pool.run {
        release.wait()
        ran.withLock { $0 += 1 }
        group.leave()
      }
    }
    #expect(pool.threads.made == 2)
    for _ in 0..<10 { release.signal() }
    #expect(group.wait(timeout: .now() + 60) == .success)
    #expect(ran.current == 10)
    #expect(pool.threads.made == 2)
  }

  @Test func everyPieceRunsOnceWhenManyComeAtOnce() {
    let pool = WorkerPool()
    let count = Locked(0)
    let group = DispatchGroup()
    for _ in 0..<200 {
      group.enter()
      pool.run {
        count.withLock { $0 += 1 }
        group.leave()
      }
    }
    #expect(group.wait(timeout: .now() + 60) == .success)
    #expect(count.current == 200)
    #expect(pool.threads.made <= pool.limit)
  }
}
