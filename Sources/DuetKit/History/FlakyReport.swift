import Foundation

/// Which lanes are flaky, by the evidence in the history window.
///
/// A lane is flaky when, for one input fingerprint, the store holds both a pass
/// and a failure, or an attempt that failed and then passed on retry. A timeout
/// counts as a failure; skipped, cancelled and cached lanes are not evidence.
/// Flips count changes of outcome between consecutive runs with the same
/// fingerprint, as BuildPulse counts disruptions. A lane whose newest evidence is
/// over 7 days old is reported as recovered.
public struct FlakyReport: Sendable {
  public static let definition = "flaky = one lane and one input fingerprint with both a pass and a failure, or a failed attempt that passed on retry"
  public static let recoveryAge: Double = 7 * 24 * 3600

  public struct Entry: Sendable, Equatable {
    public var lane: String
    public var runs: Int
    /// Failed or timed-out attempts.
    public var failures: Int
    public var flakyFingerprints: Int
    public var flips: Int
    public var retriesPassed: Int
    /// When the newest evidence was seen (seconds since 1970).
    public var lastSeen: Double
    public var recovered: Bool
  }

  public var entries: [Entry]
  public var runsInWindow: Int

  public var flaky: [Entry] { entries.filter { !$0.recovered } }
  public var recovered: [Entry] { entries.filter(\.recovered) }

  /// The report over `runs` and their `steps`, as of `now`.
  public static func compute(runs: [RunRow], steps: [StepRow], now: Double) -> FlakyReport {
    let started = Dictionary(uniqueKeysWithValues: runs.map { ($0.id, $0.started) })
    // One lane in one run: its attempts' outcomes, in order.
    struct LaneRun { var started: Double; var fingerprint: String?; var outcomes: [String] }
    var byLane: [String: [String: LaneRun]] = [:]
    for step in steps {
      guard let runStart = started[step.runID], let outcome = step.attemptOutcome, outcome != "interrupted" else { continue }
      var laneRun = byLane[step.lane]?[step.runID] ?? LaneRun(started: runStart, fingerprint: step.fingerprint, outcomes: [])
      laneRun.outcomes.append(outcome)
      byLane[step.lane, default: [:]][step.runID] = laneRun
    }
    var entries: [Entry] = []
    for (lane, runsOfLane) in byLane {
      let ordered = runsOfLane.values.sorted { $0.started < $1.started }
      var failures = 0, flips = 0, retriesPassed = 0
      var lastSeen = -Double.infinity
      var outcomesByFingerprint: [String: (passed: Bool, failed: Bool)] = [:]
      var lastOutcomeByFingerprint: [String: Bool] = [:]
      for laneRun in ordered {
        let failed = laneRun.outcomes.filter { $0 == "fail" || $0 == "timeout" }.count
        failures += failed
        let finalPass = laneRun.outcomes.last == "pass"
        if failed > 0 && finalPass {
          retriesPassed += 1
          lastSeen = max(lastSeen, laneRun.started)
        }
        guard let fingerprint = laneRun.fingerprint else { continue }
        var seen = outcomesByFingerprint[fingerprint] ?? (false, false)
        if laneRun.outcomes.contains("pass") { seen.passed = true }
        if failed > 0 { seen.failed = true }
        outcomesByFingerprint[fingerprint] = seen
        if let previous = lastOutcomeByFingerprint[fingerprint], previous != finalPass {
          flips += 1
          lastSeen = max(lastSeen, laneRun.started)
        }
        lastOutcomeByFingerprint[fingerprint] = finalPass
      }
      // Every mixed fingerprint also flipped at least once, and the flip is its evidence in time.
      let mixed = outcomesByFingerprint.values.filter { $0.passed && $0.failed }
      guard !mixed.isEmpty || retriesPassed > 0 else { continue }
      entries.append(Entry(lane: lane, runs: ordered.count, failures: failures, flakyFingerprints: mixed.count, flips: flips,
                           retriesPassed: retriesPassed, lastSeen: lastSeen, recovered: now - lastSeen > recoveryAge))
    }
    entries.sort { a, b in
      if a.recovered != b.recovered { return !a.recovered }
      let scoreA = a.flips + a.retriesPassed + a.flakyFingerprints, scoreB = b.flips + b.retriesPassed + b.flakyFingerprints
      if scoreA != scoreB { return scoreA > scoreB }
      if a.failures != b.failures { return a.failures > b.failures }
      if a.lastSeen != b.lastSeen { return a.lastSeen > b.lastSeen }
      return a.lane < b.lane
    }
    return FlakyReport(entries: entries, runsInWindow: runs.count)
  }
}
