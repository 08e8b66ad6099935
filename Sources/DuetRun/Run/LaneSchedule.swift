import DuetModel
import DuetSupport
import DuetHistory

/// Every decision of a run, with no clock, no queue and no process: which lanes
/// may start now, and what a finished attempt means for the rest. The Dispatch
/// driver (`LaneLoop`) only feeds it events, so tests step it by hand, as
/// ninja's `Plan` is tested in `build_test.cc`.
///
/// Lanes settled before the run (cached, a missing program, a bad `dir`) never
/// start: their dependents are released or skipped at once, and a lane that is
/// settled is never made ready, whatever its needs do.
package struct LaneSchedule: Sendable {
  /// One attempt to start.
  package struct Start: Sendable, Equatable {
    var index: Int
    var attempt: Int
  }

  /// What an attempt's end means: the lane runs again, or it has its outcome.
  enum AfterAttempt: Sendable, Equatable {
    case retry(Start)
    case settled
  }

  /// The shape of the run: lanes, their needs, limits and what was settled before it.
  struct Setup: Sendable {
    var graph: LaneGraph
    var selected: Set<Int>
    var settled: [Int: LaneVerdict]
    var retries: [Int]
    /// The pool of each lane (nil: none); a pool runs at most its depth at once.
    var pools: [String?]
    var poolDepths: [String: Int]
    /// Expected seconds per lane, for the longest-remaining-path priority.
    var weights: [Double]
    var jobs: Int
    var failFast: Bool

    init(graph: LaneGraph, selected: Set<Int>? = nil, settled: [Int: LaneVerdict] = [:], retries: [Int]? = nil,
                pools: [String?]? = nil, poolDepths: [String: Int] = [:], weights: [Double]? = nil, jobs: Int, failFast: Bool = false) {
      let count = graph.count
      self.graph = graph
      self.selected = selected ?? Set(0..<count)
      self.settled = settled
      self.retries = retries ?? [Int](repeating: 0, count: count)
      self.pools = pools ?? [String?](repeating: nil, count: count)
      self.poolDepths = poolDepths
      self.weights = weights ?? [Double](repeating: 1, count: count)
      self.jobs = max(1, jobs)
      self.failFast = failFast
    }
  }

  private let setup: Setup
  private let names: [String]
  private let dependents: [[Int]]
  private let priority: [Double]
  private var records: [LaneVerdict?]
  private var attempts: [[LaneAttempt]]
  private var waiting: [Int]
  /// Lanes ever put in a ready queue, so none is queued (and started) twice.
  private var queued: [Bool]
  /// Ready lanes per pool; the key "" holds lanes in no pool.
  private var ready: [String: MinHeap<ReadyLane>] = [:]
  private var running = Set<Int>()
  private var runningInPool: [String: Int] = [:]
  private var stopReason: String?
  private(set) var interrupted = false
  /// Records settled since the driver last asked, in the order they settled.
  private var outbox: [LaneVerdict] = []
  private(set) var settledCount = 0

  init(_ setup: Setup) {
    self.setup = setup
    let graph = setup.graph
    names = graph.names
    dependents = graph.dependents
    records = [LaneVerdict?](repeating: nil, count: graph.count)
    attempts = [[LaneAttempt]](repeating: [], count: graph.count)
    waiting = graph.needs.map { $0.filter { setup.selected.contains($0) }.count }
    queued = [Bool](repeating: false, count: graph.count)
    var weights = setup.weights
    for i in 0..<graph.count where !setup.selected.contains(i) { weights[i] = 0 }
    priority = graph.remainingPath(weights: weights)

    // Settle what was decided before the run, needs first, so a settled lane's
    // dependents are released or skipped before anything starts.
    for i in graph.topologicalOrder() where setup.selected.contains(i) {
      if let record = setup.settled[i] { settle(i, record) }
    }
    for i in setup.selected.sorted() where records[i] == nil && waiting[i] == 0 { makeReady(i) }
  }

  // MARK: - Questions

  /// The number of lanes in the run.
  var total: Int { setup.selected.count }
  /// Whether every selected lane has its outcome.
  var isFinished: Bool { settledCount == setup.selected.count }
  func record(of index: Int) -> LaneVerdict? { records[index] }

  /// Every selected lane's record, in manifest order (call when finished).
  var finalRecords: [LaneVerdict] { setup.selected.sorted().compactMap { records[$0] } }

  // MARK: - Events

  /// The attempts to start now: the ready lanes with the longest remaining path
  /// first, up to `jobs` running at once and each pool's depth. Settles the
  /// lanes that can no longer start when nothing runs and nothing will.
  package mutating func nextStarts() -> [Start] {
    var starts: [Start] = []
    while stopReason == nil && running.count < setup.jobs, let next = popBestReady() {
      running.insert(next)
      if let pool = setup.pools[next] { runningInPool[pool, default: 0] += 1 }
      starts.append(Start(index: next, attempt: 1))
    }
    settleWhatCannotStart()
    return starts
  }

  /// An attempt ended. A failure with retries left runs again at once (in the
  /// same slot) unless the run was interrupted; otherwise the lane settles.
  mutating func attemptEnded(_ index: Int, _ result: LaneAttempt) -> AfterAttempt {
    guard running.contains(index) else { return .settled }
    attempts[index].append(result)
    let tries = attempts[index]
    let name = names[index]
    switch result.outcome {
    case .pass:
      finishRunning(index, LaneVerdict(index: index, name: name, outcome: tries.count > 1 ? .flaky : .pass, attempts: tries))
    case .interrupted:
      finishRunning(index, LaneVerdict(index: index, name: name, outcome: .interrupted, reason: "interrupted", attempts: tries))
    case .error:
      // The machine's failure: retrying would meet the same want of descriptors.
      finishRunning(index, LaneVerdict(index: index, name: name, outcome: .error, reason: result.note ?? "duet could not start it", attempts: tries))
    case .fail, .timeout:
      if tries.count <= setup.retries[index] && !interrupted {
        return .retry(Start(index: index, attempt: tries.count + 1))
      }
      finishRunning(index, LaneVerdict(index: index, name: name, outcome: result.outcome == .timeout ? .timeout : .fail, attempts: tries))
    }
    return .settled
  }

  /// Ctrl-C: nothing more starts; what has not started ends `cancelled`.
  mutating func interrupt() {
    interrupted = true
    stop("interrupted")
    settleWhatCannotStart()
  }

  /// The records settled since the last call, in order.
  package mutating func takeSettled() -> [LaneVerdict] {
    defer { outbox.removeAll() }
    return outbox
  }

  // MARK: - Inside

  private mutating func finishRunning(_ index: Int, _ record: LaneVerdict) {
    running.remove(index)
    if let pool = setup.pools[index] { runningInPool[pool, default: 1] -= 1 }
    settle(index, record)
  }

  private mutating func stop(_ reason: String) {
    if stopReason == nil { stopReason = reason }
  }

  /// Records an outcome and releases or skips the lane's dependents.
  private mutating func settle(_ index: Int, _ record: LaneVerdict) {
    var work = [(index, record)]
    var next = 0
    while next < work.count {
      let (i, record) = work[next]
      next += 1
      guard records[i] == nil else { continue }
      records[i] = record
      settledCount += 1
      outbox.append(record)
      if record.outcome.failsRun && setup.failFast { stop("not started: --fail-fast after \(record.name) failed") }
      // A dependent settled before the run keeps that outcome, whatever its needs do.
      for dependent in dependents[i] where setup.selected.contains(dependent) && records[dependent] == nil && setup.settled[dependent] == nil {
        if record.outcome.letsDependentsRun {
          waiting[dependent] -= 1
          if waiting[dependent] == 0 { makeReady(dependent) }
        } else {
          let outcome: LaneOutcome = record.outcome == .cancelled || record.outcome == .interrupted ? .cancelled : .skipped
          work.append((dependent, LaneVerdict(index: dependent, name: names[dependent], outcome: outcome, reason: "needs \(record.name)")))
        }
      }
    }
  }

  /// A lane whose needs are met joins the ready queue of its pool, unless it
  /// already has an outcome (a settled lane never starts).
  private mutating func makeReady(_ index: Int) {
    guard records[index] == nil, !queued[index] else { return }
    queued[index] = true
    ready[setup.pools[index] ?? "", default: MinHeap()].push(ReadyLane(index: index, remaining: priority[index]))
  }

  /// The best ready lane whose pool has room; lanes settled meanwhile are dropped.
  private mutating func popBestReady() -> Int? {
    while true {
      var best: (key: String, lane: ReadyLane)?
      for (key, heap) in ready {
        guard let top = heap.first else { continue }
        if !key.isEmpty && runningInPool[key, default: 0] >= (setup.poolDepths[key] ?? Int.max) { continue }
        if best == nil || top < best!.lane { best = (key, top) }
      }
      guard let best else { return nil }
      _ = ready[best.key]!.pop()
      if records[best.lane.index] == nil { return best.lane.index }
    }
  }

  private var hasReady: Bool { ready.values.contains { !$0.isEmpty } }

  /// When nothing runs and nothing more will start, every lane without an
  /// outcome is `cancelled`: after a stop, with its reason; otherwise it was
  /// never reachable (a need outside the run that never settles).
  private mutating func settleWhatCannotStart() {
    guard running.isEmpty, stopReason != nil || !hasReady else { return }
    let reason = stopReason ?? "not started"
    for i in setup.selected.sorted() where records[i] == nil {
      settle(i, LaneVerdict(index: i, name: names[i], outcome: .cancelled, reason: reason))
    }
    ready.removeAll()
  }
}
