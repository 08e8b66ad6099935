import DuetModel
import DuetSupport

/// One lane in one run of a report window, its attempts folded into what the
/// flaky and stats reports need, so neither keeps a step row.
///
/// Attempts with no outcome (a lane that did not run) or an `interrupted` one
/// are not counted; a lane with no counted attempt makes no `LaneTally`. Lane runs
/// reach a report in run order (the run's start, then its id), so consecutive
/// runs of a lane are consecutive lane runs.
struct LaneTally: Sendable, Equatable {
  /// The lane's index in the scan's list of lane names.
  var lane: Int
  /// When the run started.
  var started: Double
  /// The fingerprint of the lane's first counted attempt, as an index into the
  /// scan's fingerprints (equal text, equal index); nil when it had none.
  var fingerprint: Int?
  /// Failed or timed-out attempts.
  var failed: Int
  var anyPassed: Bool
  /// The last counted attempt passed.
  var finalPassed: Bool
  /// Seconds over the counted attempts.
  var seconds: Double
  /// The lane's outcome (on its last counted row that has one) was pass or flaky.
  var lanePassed: Bool
  /// Counted attempts, and whether the first of them passed: a lane that
  /// passes only on retry passes the run but not its first try (issue 41).
  var attempts = 0
  var firstPassed = false
  /// Seconds of the first counted attempt, and of each later one: the
  /// percentiles are over attempts. Empty (no allocation) for a single attempt.
  var firstSeconds = 0.0
  var retrySeconds: [Double] = []
  /// The quarantine excused an attempt: the lane passed this run on a failure, which `stats` counts apart.
  var excused = false
}

/// How a counted attempt ended, as the reports weigh it.
enum AttemptKind {
  case pass
  case failure

  /// nil for an attempt that is not counted (interrupted, or an outcome duet
  /// never writes, as `StepRow` reads it); from the bytes of the column, with no string made.
  init?(bytes: UnsafeBufferPointer<UInt8>?) {
    guard let bytes else { return nil }
    if ReportWindow.equal(bytes, "pass") { self = .pass }
    else if ReportWindow.equal(bytes, "fail") || ReportWindow.equal(bytes, "timeout") { self = .failure }
    else { return nil }
  }

  /// nil for an attempt that is not counted.
  init?(_ outcome: AttemptOutcome?) {
    switch outcome {
    // Interrupted, or not started for want of resources: no evidence on the lane.
    case nil, .interrupted?, .error?: return nil
    case .pass?: self = .pass
    case .fail?, .timeout?: self = .failure
    }
  }
}

extension LaneTally {
  /// Folds in-memory rows into lane runs in run order: the reports' input when
  /// they are given rows rather than a store.
  static func fold(runs: [RunRow], steps: [StepRow]) -> (lanes: [String], laneRuns: [LaneTally]) {
    let ordered = runs.sorted { ($0.started, $0.id) < ($1.started, $1.id) }
    let position = Dictionary(ordered.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    var laneIndex: [String: Int] = [:], lanes: [String] = []
    var fingerprintIndex: [String: Int] = [:]
    let counted = steps.enumerated()
      .compactMap { item -> (run: Int, offset: Int, element: StepRow, kind: AttemptKind)? in
        guard let run = position[item.element.runID], let kind = AttemptKind(item.element.attemptOutcome) else { return nil }
        return (run, item.offset, item.element, kind)
      }
      .sorted { a, b in
        if a.run != b.run { return a.run < b.run }
        if a.element.lane != b.element.lane { return a.element.lane < b.element.lane }
        if a.element.attempt != b.element.attempt { return a.element.attempt < b.element.attempt }
        return a.offset < b.offset
      }
      .map { ($0.element, $0.kind, ordered[$0.run].started) }
    var result: [LaneTally] = []
    var current: (run: String, lane: String)?
    for (step, kind, started) in counted {
      if current?.run != step.runID || current?.lane != step.lane {
        let lane = laneIndex[step.lane] ?? { lanes.append(step.lane); laneIndex[step.lane] = lanes.count - 1; return lanes.count - 1 }()
        let fingerprint = step.fingerprint.map { text in
          fingerprintIndex[text] ?? { fingerprintIndex[text] = fingerprintIndex.count; return fingerprintIndex.count - 1 }()
        }
        result.append(LaneTally(lane: lane, started: started, fingerprint: fingerprint, failed: 0,
                              anyPassed: false, finalPassed: false, seconds: 0, lanePassed: false))
        current = (step.runID, step.lane)
      }
      result[result.count - 1].add(kind, seconds: step.duration, laneOutcome: step.laneOutcome)
      if step.excused { result[result.count - 1].excused = true }
    }
    return (lanes, result)
  }

  /// Counts one more attempt of this lane in this run.
  mutating func add(_ kind: AttemptKind, seconds: Double, laneOutcome: LaneOutcome?) {
    add(kind, seconds: seconds, lanePassed: laneOutcome.map { $0 == .pass || $0 == .flaky })
  }

  /// Counts one more attempt; `lanePassed` is nil on a row without the lane's outcome.
  mutating func add(_ kind: AttemptKind, seconds: Double, lanePassed: Bool?) {
    if attempts == 0 {
      firstPassed = kind == .pass
      firstSeconds = seconds
    } else {
      retrySeconds.append(seconds)
    }
    attempts += 1
    if kind == .failure { failed += 1 }
    if kind == .pass { anyPassed = true }
    finalPassed = kind == .pass
    self.seconds += seconds
    if let lanePassed { self.lanePassed = lanePassed }
  }
}
