import Foundation
import DuetModel
import DuetSupport

/// Which lanes are flaky, by the evidence in the history window.
///
/// A lane is flaky when, for one input fingerprint, the store holds both a pass
/// and a failure, or an attempt that failed and then passed on retry. A timeout
/// counts as a failure; skipped, cancelled and cached lanes are not evidence.
/// Flips count changes of outcome between consecutive runs with the same
/// fingerprint, as BuildPulse counts disruptions. A lane whose newest evidence is
/// over 7 days old is reported as recovered.
package struct FlakyReport: Sendable {
  package static let definition = "flaky = one lane and one input fingerprint with both a pass and a failure, or a failed attempt that passed on retry"
  static let recoveryAge: Double = 7 * 24 * 3600

  package struct Entry: Sendable, Equatable {
    package var lane: String
    package var runs: Int
    /// Failed or timed-out attempts.
    package var failures: Int
    package var flakyFingerprints: Int
    package var flips: Int
    package var retriesPassed: Int
    /// When the newest evidence was seen (seconds since 1970).
    package var lastSeen: Double
    var recovered: Bool
    /// Where its failures happened (`ci linux-1`, `host laptop`), when the
    /// window holds runs from more than one place (`history pull`).
    package var failedOn: [String] = []
  }

  var entries: [Entry]
  package var runsInWindow: Int
  /// The window's runs by where they came from, most first.
  package var origins: [OriginTally] = []

  package var flaky: [Entry] { entries.filter { !$0.recovered } }
  package var recovered: [Entry] { entries.filter(\.recovered) }

  /// The report over `runs` and their `steps`, as of `now`.
  static func compute(runs: [RunRow], steps: [StepRow], now: Double) -> FlakyReport {
    let (lanes, laneRuns) = LaneRun.fold(runs: runs, steps: steps)
    var evidence = Evidence()
    laneRuns.forEach { evidence.add($0) }
    return evidence.report(lanes: lanes, runsInWindow: runs.count, now: now)
  }

  /// The report over the store's last `last` runs (those since `since` only), as
  /// of `now`, folded as the rows stream out of SQLite.
  package static func compute(store: HistoryStore, last: Int, since: Double?, now: Double) throws(HistoryError) -> FlakyReport {
    var evidence = Evidence()
    let window = try store.scanWindow(last: last, since: since, reading: .evidence) { evidence.add($0) }
    var report = evidence.report(lanes: window.lanes, runsInWindow: window.runs, now: now)
    report.origins = try store.windowOrigins(last: last, since: since)
    if report.origins.count > 1 {
      for index in report.entries.indices {
        report.entries[index].failedOn = try store.failureOrigins(lane: report.entries[index].lane, last: last, since: since)
      }
    }
    return report
  }

  /// Each lane's evidence so far, fed lane runs in run order.
  struct Evidence {
    struct Fingerprint { var passed = false, failed = false, lastPassed: Bool? }
    struct Lane {
      var runs = 0, failures = 0, flips = 0, retriesPassed = 0
      var lastSeen = -Double.infinity
      var fingerprints: [Fingerprint] = []
      var slots: [Int: Int] = [:]
      /// The newest fingerprint's slot, which nearly every run repeats.
      var lastFingerprint = -1, lastSlot = -1
    }
    var lanes: [Lane] = []

    mutating func add(_ run: LaneRun) {
      while lanes.count <= run.lane { lanes.append(Lane()) }
      lanes[run.lane].add(run)
    }

    func report(lanes names: [String], runsInWindow: Int, now: Double) -> FlakyReport {
      var entries: [Entry] = []
      for (index, lane) in lanes.enumerated() where lane.runs > 0 {
        // Every mixed fingerprint also flipped at least once, and the flip is its evidence in time.
        let mixed = lane.fingerprints.filter { $0.passed && $0.failed }.count
        guard mixed > 0 || lane.retriesPassed > 0 else { continue }
        entries.append(Entry(lane: names[index], runs: lane.runs, failures: lane.failures, flakyFingerprints: mixed, flips: lane.flips,
                             retriesPassed: lane.retriesPassed, lastSeen: lane.lastSeen, recovered: now - lane.lastSeen > recoveryAge))
      }
      entries.sort { a, b in
        if a.recovered != b.recovered { return !a.recovered }
        let scoreA = a.flips + a.retriesPassed + a.flakyFingerprints, scoreB = b.flips + b.retriesPassed + b.flakyFingerprints
        if scoreA != scoreB { return scoreA > scoreB }
        if a.failures != b.failures { return a.failures > b.failures }
        if a.lastSeen != b.lastSeen { return a.lastSeen > b.lastSeen }
        return a.lane < b.lane
      }
      return FlakyReport(entries: entries, runsInWindow: runsInWindow)
    }
  }
}

extension FlakyReport.Evidence.Lane {
  mutating func add(_ run: LaneRun) {
    runs += 1
    failures += run.failed
    if run.failed > 0 && run.finalPassed {
      retriesPassed += 1
      lastSeen = max(lastSeen, run.started)
    }
    guard let fingerprint = run.fingerprint else { return }
    if fingerprint != lastFingerprint {
      lastFingerprint = fingerprint
      lastSlot = slots[fingerprint] ?? {
        fingerprints.append(.init())
        slots[fingerprint] = fingerprints.count - 1
        return fingerprints.count - 1
      }()
    }
    if run.anyPassed { fingerprints[lastSlot].passed = true }
    if run.failed > 0 { fingerprints[lastSlot].failed = true }
    if let previous = fingerprints[lastSlot].lastPassed, previous != run.finalPassed {
      flips += 1
      lastSeen = max(lastSeen, run.started)
    }
    fingerprints[lastSlot].lastPassed = run.finalPassed
  }
}
