import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

/// The run plan stepped by hand: no clock, no queue, no process.
@Suite("Run plan")
struct LaneScheduleTests {
  /// A graph from `name: needs` pairs.
  func graph(_ spec: [(String, [String])]) -> LaneGraph {
    LaneGraph(names: spec.map(\.0), needs: spec.map(\.1))
  }

  func attempt(_ number: Int, _ outcome: AttemptOutcome) -> LaneAttempt {
    LaneAttempt(attempt: number, outcome: outcome, exitCode: outcome == .pass ? 0 : 1, started: 0, duration: 1, logPath: nil, tail: LogTail())
  }

  func cached(_ index: Int, _ name: String) -> LaneVerdict {
    LaneVerdict(index: index, name: name, outcome: .cached)
  }

  /// A cached lane whose need is cached too is never offered to start (the defect
  /// where `y` showed `cached` and still ran), and the run is finished before anything starts.
  @Test func cachedChainNeverStarts() {
    var plan = LaneSchedule(.init(graph: graph([("x", []), ("y", ["x"])]), settled: [0: cached(0, "x"), 1: cached(1, "y")], jobs: 2))
    #expect(plan.nextStarts().isEmpty)
    #expect(plan.isFinished)
    #expect(plan.takeSettled().map(\.outcome) == [.cached, .cached])
  }

  /// A cached need releases a dependent that is not cached, exactly once.
  @Test func cachedNeedReleasesDependentOnce() {
    var plan = LaneSchedule(.init(graph: graph([("x", []), ("y", ["x"])]), settled: [0: cached(0, "x")], jobs: 4))
    #expect(plan.nextStarts() == [.init(index: 1, attempt: 1)])
    #expect(plan.nextStarts().isEmpty)
    #expect(plan.attemptEnded(1, attempt(1, .fail)) == .settled)
    #expect(plan.nextStarts().isEmpty)
    #expect(plan.isFinished)
    #expect(plan.finalRecords.map(\.outcome) == [.cached, .fail])
  }

  /// An attempt duet could not start (the machine's `error`) is not retried,
  /// even with retries left; the lane ends `error`, its dependents are skipped,
  /// and the verdict is ERROR with exit 3, not FAIL.
  @Test func anErrorIsNotRetriedAndIsNoFailure() {
    var plan = LaneSchedule(.init(graph: graph([("x", []), ("y", ["x"])]), retries: [3, 0], jobs: 2))
    #expect(plan.nextStarts() == [.init(index: 0, attempt: 1)])
    var failed = attempt(1, .error)
    failed.note = "cannot make a pipe: Too many open files"
    #expect(plan.attemptEnded(0, failed) == .settled)
    #expect(plan.nextStarts().isEmpty)
    #expect(plan.isFinished)
    #expect(plan.finalRecords.map(\.outcome) == [.error, .skipped])
    let outcome = RunVerdict(lanes: plan.finalRecords, interrupted: false, duration: 1)
    #expect(outcome.outcome == .error)
    #expect(outcome.exitCode == 3)
    #expect(outcome.lastLine == "duet verify: ERROR (1 could not start: x (cannot make a pipe: Too many open files); 1 skipped)")
  }

  /// Needs first, the longest remaining path first among ready lanes, at most `jobs` at once.
  @Test func readyOrderAndJobs() {
    var plan = LaneSchedule(.init(graph: graph([("short", []), ("a", []), ("b", ["a"]), ("c", ["b"])]), jobs: 1))
    #expect(plan.nextStarts() == [.init(index: 1, attempt: 1)])
    _ = plan.attemptEnded(1, attempt(1, .pass))
    #expect(plan.nextStarts() == [.init(index: 2, attempt: 1)])
    _ = plan.attemptEnded(2, attempt(1, .pass))
    // c (remaining path 1, index 3) and short (remaining 1, index 0) tie: manifest order.
    #expect(plan.nextStarts() == [.init(index: 0, attempt: 1)])
  }

  /// A failure with retries left runs again in the same slot; the lane ends flaky when a retry passes.
  @Test func retriesThenFlaky() {
    var plan = LaneSchedule(.init(graph: graph([("w", [])]), retries: [2], jobs: 1))
    #expect(plan.nextStarts() == [.init(index: 0, attempt: 1)])
    #expect(plan.attemptEnded(0, attempt(1, .fail)) == .retry(.init(index: 0, attempt: 2)))
    #expect(plan.nextStarts().isEmpty)
    #expect(plan.attemptEnded(0, attempt(2, .pass)) == .settled)
    #expect(plan.finalRecords.first?.outcome == .flaky)
    #expect(plan.finalRecords.first?.attempts.count == 2)
  }

  /// A failure skips dependents transitively, naming the direct need; a settled skip does the same.
  @Test func failureAndPresetSkips() {
    var plan = LaneSchedule(.init(graph: graph([("a", []), ("b", ["a"]), ("c", ["b"]), ("k", []), ("after", ["k"])]),
                             settled: [3: LaneVerdict(index: 3, name: "k", outcome: .skipped, reason: "needs kotlinc, not found")], jobs: 4))
    #expect(plan.nextStarts() == [.init(index: 0, attempt: 1)])
    _ = plan.attemptEnded(0, attempt(1, .fail))
    #expect(plan.nextStarts().isEmpty)
    let by = Dictionary(uniqueKeysWithValues: plan.finalRecords.map { ($0.name, $0) })
    #expect(by["b"]?.reason == "needs a" && by["c"]?.reason == "needs b" && by["after"]?.reason == "needs k")
    #expect(by["c"]?.outcome == .skipped)
  }

  /// `--fail-fast`: nothing starts after a failure; running lanes finish; the rest are cancelled.
  @Test func failFast() {
    var plan = LaneSchedule(.init(graph: graph([("a", []), ("b", []), ("c", [])]), jobs: 2, failFast: true))
    #expect(plan.nextStarts().map(\.index) == [0, 1])
    _ = plan.attemptEnded(0, attempt(1, .fail))
    #expect(plan.nextStarts().isEmpty)
    #expect(!plan.isFinished)
    _ = plan.attemptEnded(1, attempt(1, .pass))
    #expect(plan.nextStarts().isEmpty)
    #expect(plan.isFinished)
    #expect(plan.finalRecords.map(\.outcome) == [.fail, .pass, .cancelled])
    #expect(plan.finalRecords[2].reason == "not started: --fail-fast after a failed")
  }

  /// Ctrl-C: no retry, nothing new starts; the failed lane's dependent is skipped, what never started is cancelled.
  @Test func interrupt() {
    var plan = LaneSchedule(.init(graph: graph([("a", []), ("b", ["a"]), ("c", [])]), retries: [3, 0, 0], jobs: 1))
    #expect(plan.nextStarts().map(\.index) == [0])
    plan.interrupt()
    #expect(plan.attemptEnded(0, attempt(1, .fail)) == .settled)
    #expect(plan.nextStarts().isEmpty)
    #expect(plan.interrupted && plan.isFinished)
    #expect(plan.finalRecords.map(\.outcome) == [.fail, .skipped, .cancelled])
  }

  /// A pool of depth 1 never runs two of its lanes at once, while other lanes fill the free jobs.
  @Test func poolsLimitTheirLanes() {
    var plan = LaneSchedule(.init(graph: graph([("g1", []), ("g2", []), ("g3", []), ("swift", [])]),
                             pools: ["gradle", "gradle", "gradle", nil], poolDepths: ["gradle": 1], jobs: 4))
    #expect(plan.nextStarts().map(\.index).sorted() == [0, 3])
    _ = plan.attemptEnded(3, attempt(1, .pass))
    #expect(plan.nextStarts().isEmpty)
    _ = plan.attemptEnded(0, attempt(1, .pass))
    #expect(plan.nextStarts().map(\.index) == [1])
    _ = plan.attemptEnded(1, attempt(1, .pass))
    #expect(plan.nextStarts().map(\.index) == [2])
  }
}
