import Foundation
import DuetModel
import DuetSupport

/// Drives a `RunPlan` on Dispatch: starts what the plan says may start, hands
/// each attempt to a `StepRunner`, and feeds every end back to the plan. It
/// decides nothing itself; all state lives on one serial queue.
public final class Scheduler: Sendable {
  private struct State: Sendable {
    var plan: RunPlan
    var makeRequest: (@Sendable (_ index: Int, _ attempt: Int) -> StepRequest)?
    var onEvent: (@Sendable (RunEvent) -> Void)?
    var finishedEvents = 0
    var signalled = false
    /// Set when `run` has handed over its callbacks; an interrupt before it only marks the plan.
    var started = false
  }

  private let names: [String]
  private let runner: any StepRunner
  private let queue = DispatchQueue(label: "duet.scheduler")
  /// Set on `queue`, so an end reported while the queue runs is told apart.
  private let onQueue = DispatchSpecificKey<Bool>()
  /// Touched only on `queue`; the lock makes that checkable, it is never contended.
  private let state: Locked<State>
  private let finished = DispatchSemaphore(value: 0)

  public init(plan: RunPlan, names: [String], runner: any StepRunner) {
    self.names = names
    self.runner = runner
    self.state = Locked(State(plan: plan))
    queue.setSpecific(key: onQueue, value: true)
  }

  /// Runs every selected lane and blocks until each has an outcome.
  public func run(makeRequest: @escaping @Sendable (_ index: Int, _ attempt: Int) -> StepRequest,
                  onEvent: @escaping @Sendable (RunEvent) -> Void) -> RunResult {
    let start = Date()
    queue.async {
      self.state.withLock {
        $0.makeRequest = makeRequest
        $0.onEvent = onEvent
        $0.started = true
      }
      self.pump()
    }
    finished.wait()
    return queue.sync {
      let plan = state.withLock { $0.plan }
      return RunResult(records: plan.finalRecords, interrupted: plan.interrupted, duration: Date().timeIntervalSince(start))
    }
  }

  /// Ctrl-C: start nothing more and stop what runs; the run ends as interrupted.
  public func interrupt() {
    queue.async {
      let (already, started) = self.state.withLock { state -> (Bool, Bool) in
        let was = state.plan.interrupted || state.signalled
        if !was { state.plan.interrupt() }
        return (was, state.started)
      }
      // Before the run has its callbacks, the plan is marked and `run` reports it.
      guard !already, started else { return }
      self.runner.interruptAll()
      self.pump()
    }
  }

  // MARK: - On the queue

  private func pump() {
    let starts = state.withLock { $0.plan.nextStarts() }
    reportSettled()
    for start in starts { begin(start) }
    let done = state.withLock { state -> Bool in
      guard state.plan.isFinished, !state.signalled else { return false }
      state.signalled = true
      return true
    }
    if done { finished.signal() }
  }

  private func begin(_ start: RunPlan.Start) {
    let (makeRequest, onEvent) = state.withLock { ($0.makeRequest, $0.onEvent) }
    onEvent?(.started(index: start.index, name: names[start.index], attempt: start.attempt))
    guard let request = makeRequest?(start.index, start.attempt) else { return }
    runner.start(request) { [self] result in self.ended(start.index, result) }
  }

  /// An attempt's end is handled on the thread that reports it (the output
  /// pump, for a child), which then starts the next lane itself: no hop to
  /// another thread sits between one lane's end and the next one's start. An
  /// end reported while the queue runs (a step that fails as it starts) is
  /// queued instead, so `begin` is never re-entered.
  private func ended(_ index: Int, _ result: AttemptResult) {
    if DispatchQueue.getSpecific(key: onQueue) == true {
      queue.async { self.attemptEnded(index, result) }
    } else {
      queue.sync { self.attemptEnded(index, result) }
    }
  }

  private func attemptEnded(_ index: Int, _ result: AttemptResult) {
    let (verdict, onEvent) = state.withLock { ($0.plan.attemptEnded(index, result), $0.onEvent) }
    if case .retry(let next) = verdict {
      onEvent?(.retrying(index: index, name: names[index], failed: result))
      begin(next)
    }
    reportSettled()
    pump()
  }

  /// One `finished` event per lane, in the order the plan settled them.
  private func reportSettled() {
    let (records, onEvent, base, total) = state.withLock { state -> ([LaneRecord], (@Sendable (RunEvent) -> Void)?, Int, Int) in
      let records = state.plan.takeSettled()
      let base = state.finishedEvents
      state.finishedEvents += records.count
      return (records, state.onEvent, base, state.plan.total)
    }
    for (offset, record) in records.enumerated() {
      onEvent?(.finished(record, finishedCount: base + offset + 1, total: total))
    }
  }
}
