import Foundation
import Testing
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the next lane starts: on the thread that reported the previous end
/// (the output pump, for children), not after a hop to the scheduler's queue.
@Suite("Scheduler hand-off")
struct SchedulerHandoffTests {
  /// `b` needs `a`: `b` starts on the very thread that ended `a`.
  @Test func nextLaneStartsOnTheThreadThatReportedTheEnd() {
    let runner = ThreadRecordingRunner(endSynchronously: false)
    let (result, _) = schedule(lanes([("a", []), ("b", ["a"])]), runner: runner, jobs: 2)
    #expect(result.records.allSatisfy { $0.outcome == .pass })
    let seen = runner.seen.current
    #expect(seen["a"]?.ended != nil)
    #expect(seen["b"]?.started == seen["a"]?.ended)
  }

  /// A step that ends while it is being started (on the scheduler's queue)
  /// still lets the run go on, and never re-enters the start.
  @Test func anEndReportedDuringTheStartIsQueued() {
    let runner = ThreadRecordingRunner(endSynchronously: true)
    let (result, _) = schedule(lanes([("a", []), ("b", ["a"]), ("c", ["b"])]), runner: runner, jobs: 1)
    #expect(result.records.map(\.outcome) == [LaneOutcome.pass, .pass, .pass])
  }
}

/// Ends each attempt on a thread of its own (or at once, inside `start`) and
/// records the threads each lane started and ended on.
final class ThreadRecordingRunner: StepRunner {
  struct Seen: Sendable {
    var started: UInt64?
    var ended: UInt64?
  }

  let endSynchronously: Bool
  let seen = Locked<[String: Seen]>([:])

  init(endSynchronously: Bool) {
    self.endSynchronously = endSynchronously
  }

  func start(_ request: StepRequest, completion: @escaping @Sendable (AttemptResult) -> Void) {
    let name = request.lane.name
    seen.withLock { $0[name, default: Seen()].started = currentThreadID() }
    let end: @Sendable () -> Void = { [seen] in
      seen.withLock { $0[name, default: Seen()].ended = currentThreadID() }
      completion(AttemptResult(attempt: request.attempt, outcome: .pass, exitCode: 0, started: Date().timeIntervalSince1970,
                               duration: 0, logPath: nil, tail: LogTail()))
    }
    if endSynchronously { end() } else { Thread { end() }.start() }
  }

  func interruptAll() {}
}

private func currentThreadID() -> UInt64 {
  #if canImport(Darwin)
  var id: UInt64 = 0
  pthread_threadid_np(nil, &id)
  return id
  #else
  return UInt64(pthread_self())
  #endif
}
