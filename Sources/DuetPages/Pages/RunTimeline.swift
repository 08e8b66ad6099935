import DuetHistory
import DuetSupport

/// One verify run laid out in time, as the timings page and the trace draw it:
/// every attempt a bar on a job slot, each lane's wait for its needs, how many
/// lanes ran at each moment, and the critical path: the chain, ending at the
/// lane that ended last, along which each lane waited for what ended last
/// before it started, a need or, when it started after all its needs had
/// ended, the lane whose job slot it waited for.
///
/// Made from the history's rows, so a run read back from the store and a run
/// just finished draw the same.
package struct RunTimeline: Sendable {
  struct Bar: Sendable, Equatable {
    var lane: String
    var attempt: Int
    /// Seconds from the run's start.
    var start: Double
    var duration: Double
    /// The job slot it ran on, from 0.
    var slot: Int
    /// What the bar shows: `pass`, `fail`, `timeout`, `interrupted`, `retried`
    /// for a failed attempt that a later one of the same lane followed, or
    /// `excused` for a failure the quarantine excused.
    var outcome: String
    var onCriticalPath: Bool
  }

  /// One row of the table: a lane and how it ended.
  struct LaneRow: Sendable, Equatable {
    var lane: String
    /// The lane's outcome (`pass`, `flaky`, `cached`, `skipped`, ...), or `excused`
    /// when it passed only because the quarantine excused a failure.
    var outcome: String
    var attempts: Int
    /// Seconds from the run's start to its first attempt; nil when it did not run.
    var start: Double?
    /// Seconds over its attempts.
    var duration: Double
    /// Seconds between the end of its last need and its first attempt (time it
    /// waited for a job slot or a pool), or from the run's start when it needs nothing.
    var waited: Double?
    var needs: [String]
    var onCriticalPath: Bool
  }

  var runID: String
  var started: Double
  var duration: Double
  var verdict: String
  var fingerprints: [String: String]
  var bars: [Bar]
  var lanes: [LaneRow]
  var slots: Int
  /// The critical path's lanes, first to last.
  var criticalPath: [String]
  /// How many attempts ran from each moment on (seconds from the run's start), in time order: a step line from 0 to `duration`.
  var concurrency: [(time: Double, running: Int)]

  /// The lanes whose outcome failed the run (`fail`, `timeout`), in the table's order.
  var failingLanes: [(lane: String, outcome: String)] {
    lanes.filter { $0.outcome == "fail" || $0.outcome == "timeout" }.map { ($0.lane, $0.outcome) }
  }

  /// The timeline of `run` and its `steps`; `needs` maps a lane to the lanes it needs.
  package init(run: RunRow, steps: [StepRow], needs: [String: [String]]) {
    runID = run.id
    started = run.started
    duration = max(run.ended - run.started, steps.map { $0.started + $0.duration - run.started }.max() ?? 0)
    verdict = run.outcome.rawValue
    var fingerprints: [String: String] = [:]
    var order: [String] = []
    var byLane: [String: [StepRow]] = [:]
    for step in steps {
      if byLane[step.lane] == nil { order.append(step.lane) }
      byLane[step.lane, default: []].append(step)
      if let fingerprint = step.fingerprint { fingerprints[step.lane] = fingerprint }
    }
    self.fingerprints = fingerprints
    (bars, slots) = RunTimeline.placed(order.flatMap { byLane[$0]! }, runStart: run.started)
    let ends = RunTimeline.ends(bars)
    criticalPath = RunTimeline.criticalPath(ends: ends, starts: RunTimeline.starts(bars), needs: needs, bars: bars, jobs: run.jobs > 0 ? run.jobs : slots)
    concurrency = RunTimeline.concurrency(bars)
    let critical = Set(criticalPath)
    for index in bars.indices { bars[index].onCriticalPath = critical.contains(bars[index].lane) }
    lanes = order.map { lane in
      let rows = byLane[lane]!
      let ran = rows.filter { $0.attemptOutcome != nil }
      let first = ran.map { $0.started - run.started }.min()
      let needEnd = (needs[lane] ?? []).compactMap { ends[$0] }.max() ?? 0
      let outcome = rows.compactMap(\.laneOutcome).last?.rawValue ?? "pass"
      let excused = rows.contains(where: \.excused) && (outcome == "pass" || outcome == "flaky")
      return LaneRow(lane: lane, outcome: excused ? "excused" : outcome, attempts: ran.count,
                     start: first, duration: ran.reduce(0) { $0 + $1.duration },
                     waited: first.map { max(0, $0 - needEnd) }, needs: needs[lane] ?? [], onCriticalPath: critical.contains(lane))
    }
  }

  /// The attempts that ran as bars, each on the lowest job slot free at its start.
  static func placed(_ steps: [StepRow], runStart: Double) -> ([Bar], Int) {
    let ran = steps.enumerated().filter { $0.element.attemptOutcome != nil }
      .sorted { ($0.element.started, $0.offset) < ($1.element.started, $1.offset) }.map(\.element)
    var lastAttempt: [String: Int] = [:]
    for step in ran { lastAttempt[step.lane] = max(lastAttempt[step.lane] ?? 0, step.attempt) }
    var slotEnds: [Double] = []
    var bars: [Bar] = []
    for step in ran {
      let recorded = max(0, step.started - runStart)
      // A slot is free from the moment its last bar ended (a millisecond of slack:
      // a start is read from the wall clock, a duration from the monotonic one).
      let slot = slotEnds.firstIndex { $0 <= recorded + 0.001 } ?? slotEnds.count
      if slot == slotEnds.count { slotEnds.append(0) }
      // Within that slack the bar starts where the slot's last one ended, so two
      // bars on one track never overlap (a trace viewer would nest or hide them).
      let start = max(recorded, slotEnds[slot])
      slotEnds[slot] = start + step.duration
      let outcome = step.attemptOutcome!.rawValue
      let retried = outcome != "pass" && step.attempt < lastAttempt[step.lane]!
      bars.append(Bar(lane: step.lane, attempt: step.attempt, start: start, duration: step.duration, slot: slot,
                      outcome: step.excused ? "excused" : retried ? "retried" : outcome, onCriticalPath: false))
    }
    return (bars, slotEnds.count)
  }

  /// Per lane, when its last attempt ended (seconds from the run's start).
  static func ends(_ bars: [Bar]) -> [String: Double] {
    var ends: [String: Double] = [:]
    for bar in bars { ends[bar.lane] = max(ends[bar.lane] ?? 0, bar.start + bar.duration) }
    return ends
  }

  /// Per lane, when its first attempt started (seconds from the run's start).
  static func starts(_ bars: [Bar]) -> [String: Double] {
    var starts: [String: Double] = [:]
    for bar in bars { starts[bar.lane] = min(starts[bar.lane] ?? bar.start, bar.start) }
    return starts
  }

  /// From the lane that ended last, back through what each lane waited for: the
  /// need that ended last, or, when lanes ended after its needs and before it
  /// started (within the millisecond of slack), the last of them that ended holding
  /// one of the run's `jobs` slots, all taken: it waited for that slot.
  static func criticalPath(ends: [String: Double], starts: [String: Double], needs: [String: [String]], bars: [Bar], jobs: Int) -> [String] {
    guard var lane = ends.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else { return [] }
    var path = [lane]
    var seen: Set = [lane]
    func later(_ a: String, _ b: String) -> Bool { (ends[a]!, b) < (ends[b]!, a) }
    while true {
      var next = (needs[lane] ?? []).filter({ ends[$0] != nil && !seen.contains($0) }).max(by: later)
      let needsEnd = (needs[lane] ?? []).compactMap { ends[$0] }.max() ?? 0
      // A slot's lane: of those that ended after its needs and before it started, the last that ended holding one of the job slots, all taken.
      if let start = starts[lane] {
        let candidates = ends.filter { !seen.contains($0.key) && $0.value <= start + 0.001 && $0.value > needsEnd + 0.001 }.map(\.key)
        next = candidates.sorted { later($1, $0) }.first { candidate in
          let moment = ends[candidate]! - 0.0005
          let running = bars.filter { $0.start <= moment && moment < $0.start + $0.duration }
          return running.count >= jobs && running.contains { $0.lane == candidate }
        } ?? next
      }
      guard let next else { break }
      path.append(next)
      seen.insert(next)
      lane = next
    }
    return path.reversed()
  }

  /// The number of attempts running from each moment on, one point per change.
  static func concurrency(_ bars: [Bar]) -> [(time: Double, running: Int)] {
    var changes: [(Double, Int)] = []
    for bar in bars { changes += [(bar.start, 1), (bar.start + bar.duration, -1)] }
    // Ends before starts at the same moment: a slot handed on is not two lanes at once.
    changes.sort { ($0.0, $0.1) < ($1.0, $1.1) }
    var points: [(time: Double, running: Int)] = [(0, 0)]
    var running = 0
    for (time, change) in changes {
      running += change
      if points.last!.time == time { points[points.count - 1].running = running } else { points.append((time, running)) }
    }
    return points
  }
}
