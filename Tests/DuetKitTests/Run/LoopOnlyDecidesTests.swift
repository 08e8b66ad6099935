import Foundation
import Testing
@testable import DuetRun
@testable import DuetProcess
@testable import DuetModel
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The run loop only decides (issue 51, item 5; DESIGN §14): an attempt's
/// file work (storing outputs, reading reports, walking inputs again) runs on
/// a worker that posts back, so another lane's deadline fires on time while
/// it runs, and a lane's recorded time is its process's, never duet's copying.
@Suite("The run loop only decides")
struct LoopOnlyDecidesTests {
  /// A worker held back until a signal, or `patience` seconds of real time (a test that fails, never one that hangs).
  final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let released = Locked(false)
    let patience: Double
    init(patience: Double = 3) { self.patience = patience }
    func open() { semaphore.signal() }
    /// Whether the gate was opened (rather than given up on).
    func pass() -> Bool {
      let opened = semaphore.wait(timeout: .now() + patience) == .success
      released.withLock { $0 = opened }
      return opened
    }
    var wasOpened: Bool { released.withLock { $0 } }
  }

  /// `store` passes at once and its outputs take "long" to store (held back
  /// until `slow` ends); `slow` hangs and must be stopped at its 1.5 s
  /// deadline meanwhile. On the loop's thread, the storing would hold the
  /// loop until the gate gives up, and `slow` would end after `store`.
  private func runWithHeldOutputs(workers: AttemptWorkers, patience: Double = 3) -> (gate: Gate, order: [String], by: [String: LaneVerdict]) {
    let poller = FakePoller(delays: ["store": 0.01])
    poller.behave = { name, _ in name == "slow" ? .init(seconds: 0, hangs: true) : .init(seconds: 0.01) }
    let gate = Gate(patience: patience)
    var order: [String] = []
    let (_, by) = schedule(lanes([("store", []), ("slow", [])], outputs: ["store": ["build/store"]]), runner: poller, jobs: 2,
                           outputs: { _, lane in
                             if lane.name == "store" { _ = gate.pass() }
                             return OutputCheck(missing: [])
                           },
                           workers: workers, timeouts: ["slow": 1.5],
                           events: { event in
                             guard case .finished(let record, _, _) = event else { return }
                             order.append(record.name)
                             if record.name == "slow" { gate.open() }
                           })
    return (gate, order, by)
  }

  /// A built-in runs for its lane's whole length (past its timeout when it
  /// never returns), so `LaneLoop` starts it with `startLong`: a thread of its
  /// own, never one of the pool's few. With the pool's every thread held, a
  /// built-in still runs at once, where a pool piece waits for a thread.
  @Test func aBuiltInsThreadIsNotOneOfThePools() {
    let pool = WorkerPool(limit: 1)
    let held = Gate(patience: 10)
    pool.run { _ = held.pass() }
    let workers = AttemptWorkers.pool(pool)
    let long = Gate(patience: 3), queued = Gate(patience: 0.3)
    workers.start { queued.open() }
    #expect(workers.startLong != nil)
    (workers.startLong ?? workers.start) { long.open() }
    #expect(long.pass(), "the built-in waited for the pool's held thread")
    #expect(!queued.pass(), "the pool piece did not wait: the test's pool was not full")
    held.open()
  }

  /// With no thread to be made for a built-in, it goes to an idle thread of
  /// the pool, not the caller's: the caller is the run loop, which would stop
  /// draining pipes and firing deadlines until the built-in returned.
  @Test func aBuiltInWithNoThreadOfItsOwnTakesAnIdlePoolThread() {
    let pool = WorkerPool(limit: 2)
    let warmed = Gate(patience: 10)
    pool.run { warmed.open() }
    #expect(warmed.pass(), "the pool made no thread")
    let workers = AttemptWorkers.pool(pool, startThread: { _ in EAGAIN })
    let caller = pthread_self()
    let onCaller = Locked<Bool?>(nil)
    let ran = Gate(patience: 10)
    (workers.startLong ?? workers.start) {
      let here = pthread_equal(pthread_self(), caller) != 0
      onCaller.withLock { $0 = here }
      ran.open()
    }
    #expect(ran.pass())
    #expect(onCaller.withLock { $0 } == false, "the built-in ran on the caller's (the loop's) thread")
  }

  @Test func aDeadlineFiresWhileAnotherLanesOutputsAreStored() {
    let (gate, order, by) = runWithHeldOutputs(workers: .threads)
    #expect(gate.wasOpened, "the outputs were stored on the loop's thread: the deadline waited for them")
    #expect(order == ["slow", "store"])
    #expect(by["slow"]?.outcome == .timeout)
    #expect(by["slow"]?.attempts.first?.duration == 1.5)
    #expect(by["store"]?.outcome == .pass)
    // Its process's 10 ms, not the 1.5 s its outputs took to store.
    #expect(by["store"]?.attempts.first?.duration == 0.01)
  }

  /// The same run with the work done where the loop is (the design before
  /// issue 51, and what a machine with no thread to give gets): the deadline
  /// waits for the storing. This is what the test above tells apart.
  @Test func onTheLoopsThreadTheDeadlineWaits() {
    let (gate, order, _) = runWithHeldOutputs(workers: .here, patience: 0.3)
    #expect(!gate.wasOpened)
    #expect(order == ["store", "slow"])
  }

  /// Ctrl-C while an attempt's outputs are being stored ends the run at once:
  /// the attempt is interrupted, and the worker's late result is dropped.
  @Test func ctrlCWhileOutputsAreStoredEndsTheRunAtOnce() {
    let poller = FakePoller(delays: ["store": 0.01, "next": 1])
    let gate = Gate()
    let interruption = StopRequest()
    let (result, by) = schedule(lanes([("store", []), ("next", ["store"])], outputs: ["store": ["build/store"]]), runner: poller, jobs: 2, interruption: interruption,
                                outputs: { _, _ in
                                  interruption.request()
                                  _ = gate.pass()
                                  return OutputCheck(missing: [])
                                },
                                workers: .threads)
    gate.open()
    #expect(result.interrupted)
    #expect(by["store"]?.outcome == .interrupted)
    #expect(by["next"]?.outcome == .cancelled)
  }

  /// A pass whose worker found a declared output missing fails, as before, and keeps nothing.
  @Test func aMissingOutputFoundByTheWorkerFailsTheAttempt() {
    let poller = FakePoller()
    let kept = Locked(0)
    let (_, by) = schedule(lanes([("app", [])], outputs: ["app": ["build/app.zip"]]), runner: poller,
                           outputs: { _, _ in OutputCheck(missing: ["build/app.zip"]) { kept.withLock { $0 += 1 } } })
    #expect(by["app"]?.outcome == .fail)
    #expect(by["app"]?.attempts.first?.note == "missing output: build/app.zip")
    #expect(kept.withLock { $0 } == 0)
  }

  /// A lane that declares no output, report or input has no file work: it is
  /// judged at once on the loop's thread, without a worker's round trip (which
  /// cost a 1,000-lane run of `true` lanes a fifth of its time, tools/bench-latency).
  @Test func aLaneThatDeclaresNothingIsJudgedWithoutAWorker() {
    let poller = FakePoller()
    let handed = Locked(0)
    let counting = AttemptWorkers { work in
      handed.withLock { $0 += 1 }
      work()
    }
    let (_, by) = schedule(lanes([("plain", []), ("app", [])], outputs: ["app": ["build/app.zip"]]), runner: poller,
                           outputs: { _, _ in OutputCheck(missing: []) }, workers: counting)
    #expect(by["plain"]?.outcome == .pass)
    #expect(by["app"]?.outcome == .pass)
    #expect(handed.current == 1, "only the lane with outputs to store goes to a worker")
  }

  /// A lane whose need ran has its inputs walked again before it starts (they
  /// may be the need's outputs, a big framework): on a worker, so another
  /// lane's deadline fires meanwhile, and the lane's time starts with its process.
  @Test func aDeadlineFiresWhileALanesInputsAreWalkedAgain() {
    let poller = FakePoller()
    poller.behave = { name, _ in name == "slow" ? .init(seconds: 0, hangs: true) : .init(seconds: 0.01) }
    let gate = Gate()
    let kept = Locked(false)
    var order: [String] = []
    let all = lanes([("framework", []), ("app", ["framework"]), ("slow", [])])
    let (_, by) = schedule(all, runner: poller, jobs: 3, workers: .threads, timeouts: ["slow": 1.5],
                           startWork: { index, _ in
                             guard all[index].name == "app" else { return nil }
                             return StartWork {
                               _ = gate.pass()
                               return { kept.withLock { $0 = true } }
                             }
                           },
                           events: { event in
                             guard case .finished(let record, _, _) = event else { return }
                             order.append(record.name)
                             if record.name == "slow" { gate.open() }
                           })
    #expect(gate.wasOpened, "the inputs were walked on the loop's thread: the deadline waited for them")
    #expect(order == ["framework", "slow", "app"])
    #expect(kept.withLock { $0 })
    #expect(by["app"]?.outcome == .pass)
    #expect(by["app"]?.attempts.first?.duration == 0.01)
  }
}
