import Foundation

/// Runs a set of lanes as a DAG: a lane starts the moment its needs have passed,
/// at most `jobs` at once, and among ready lanes the one with the longest remaining
/// path starts first. A lane that fails skips its dependents; other branches go on.
///
/// All state lives on one serial queue; attempts run wherever the `StepRunner`
/// puts them and report back to that queue.
public final class Scheduler: @unchecked Sendable {
  public struct Options: Sendable {
    public var jobs: Int
    public var failFast: Bool
    public init(jobs: Int, failFast: Bool = false) {
      self.jobs = max(1, jobs)
      self.failFast = failFast
    }
  }

  private let graph: LaneGraph
  private let lanes: [Lane]
  private let selected: Set<Int>
  private let remaining: [Double]
  private let preset: [Int: LaneRecord]
  private let options: Options
  private let runner: any StepRunner
  private let queue = DispatchQueue(label: "duet.scheduler")

  private var records: [Int: LaneRecord] = [:]
  private var attempts: [Int: [AttemptResult]] = [:]
  private var waiting: [Int]
  private var ready = MinHeap<ReadyLane>()
  /// Lanes ever put in `ready`, so none is queued (and started) twice.
  private var queued = Set<Int>()
  private var running = 0
  private var stopStarting = false
  private var stopReason = ""
  private var interrupted = false
  private var finishedSignal = DispatchSemaphore(value: 0)
  private var signalled = false
  private var makeRequest: (@Sendable (Int, Int) -> StepRequest)?
  private var onEvent: (@Sendable (RunEvent) -> Void)?

  /// `selected` are the lanes to run; needs outside it count as met (`--no-deps`).
  /// `preset` holds lanes decided before the run (a missing `requires:` program).
  /// `weights` are expected durations for the critical-path priority.
  public init(graph: LaneGraph, lanes: [Lane], selected: Set<Int>, weights: [Double], preset: [Int: LaneRecord] = [:], options: Options, runner: any StepRunner) {
    self.graph = graph
    self.lanes = lanes
    self.selected = selected
    self.preset = preset
    self.options = options
    self.runner = runner
    var restricted = weights
    for i in 0..<graph.count where !selected.contains(i) { restricted[i] = 0 }
    self.remaining = graph.remainingPath(weights: restricted)
    self.waiting = (0..<graph.count).map { i in graph.needs[i].filter { selected.contains($0) }.count }
  }

  /// Runs every selected lane and blocks until all have an outcome.
  public func run(makeRequest: @escaping @Sendable (_ index: Int, _ attempt: Int) -> StepRequest,
                  onEvent: @escaping @Sendable (RunEvent) -> Void) -> RunResult {
    let start = Date()
    queue.async {
      self.makeRequest = makeRequest
      self.onEvent = onEvent
      for i in self.selected.sorted() {
        if let record = self.preset[i] {
          if self.records[i] == nil { self.finish(i, record) }
        } else if self.waiting[i] == 0 && self.records[i] == nil {
          self.makeReady(i)
        }
      }
      self.pump()
    }
    finishedSignal.wait()
    return queue.sync {
      RunResult(records: selected.sorted().compactMap { records[$0] }, interrupted: interrupted, duration: Date().timeIntervalSince(start))
    }
  }

  /// Ctrl-C: start nothing more, stop what runs; the run ends as interrupted.
  public func interrupt() {
    queue.async {
      guard !self.signalled else { return }
      self.interrupted = true
      self.stop(reason: "interrupted")
      self.runner.interruptAll()
      self.pump()
    }
  }

  private func stop(reason: String) {
    if !stopStarting {
      stopStarting = true
      stopReason = reason
    }
  }

  private func pump() {
    while !stopStarting && running < options.jobs, let next = ready.pop() {
      start(next.index, attempt: 1)
    }
    guard running == 0, ready.isEmpty || stopStarting else { return }
    // Nothing runs and nothing more will start: whatever has no outcome was never started.
    for i in selected.sorted() where records[i] == nil {
      finish(i, LaneRecord(index: i, name: lanes[i].name, outcome: .cancelled, reason: stopReason.isEmpty ? "not started" : stopReason))
    }
    if !signalled {
      signalled = true
      finishedSignal.signal()
    }
  }

  private func makeReady(_ index: Int) {
    guard queued.insert(index).inserted else { return }
    ready.push(ReadyLane(index: index, remaining: remaining[index]))
  }

  private func start(_ index: Int, attempt: Int) {
    running += 1
    onEvent?(.started(index: index, name: lanes[index].name, attempt: attempt))
    guard let request = makeRequest?(index, attempt) else { return }
    runner.start(request) { [self] result in
      queue.async { self.attemptEnded(index, result) }
    }
  }

  private func attemptEnded(_ index: Int, _ result: AttemptResult) {
    attempts[index, default: []].append(result)
    let lane = lanes[index]
    let tries = attempts[index] ?? []
    running -= 1
    switch result.outcome {
    case .pass:
      finish(index, LaneRecord(index: index, name: lane.name, outcome: tries.count > 1 ? .flaky : .pass, attempts: tries))
    case .interrupted:
      finish(index, LaneRecord(index: index, name: lane.name, outcome: .interrupted, reason: "interrupted", attempts: tries))
    case .fail, .timeout:
      if tries.count <= lane.retries && !interrupted {
        onEvent?(.retrying(index: index, name: lane.name, failed: result))
        start(index, attempt: tries.count + 1)
      } else {
        finish(index, LaneRecord(index: index, name: lane.name, outcome: result.outcome == .timeout ? .timeout : .fail, attempts: tries))
      }
    }
    pump()
  }

  /// Records an outcome, releases or skips dependents, and applies `--fail-fast`.
  private func finish(_ index: Int, _ record: LaneRecord) {
    var work = [(index, record)]
    while !work.isEmpty {
      let (i, record) = work.removeFirst()
      guard records[i] == nil else { continue }
      records[i] = record
      onEvent?(.finished(record, finishedCount: records.count, total: selected.count))
      if record.outcome.failsRun && options.failFast { stop(reason: "not started: --fail-fast after \(record.name) failed") }
      for dependent in graph.dependents[i] where selected.contains(dependent) && records[dependent] == nil {
        if record.outcome.letsDependentsRun {
          waiting[dependent] -= 1
          if waiting[dependent] == 0 { makeReady(dependent) }
        } else {
          let outcome: LaneOutcome = record.outcome == .cancelled || record.outcome == .interrupted ? .cancelled : .skipped
          work.append((dependent, LaneRecord(index: dependent, name: lanes[dependent].name, outcome: outcome, reason: "needs \(record.name)")))
        }
      }
    }
  }
}
