import Foundation
import DuetModel
import DuetSupport

/// Which lanes, or test cases of the lanes' reports, are flaky, by the evidence
/// in the history window: one ranking over an `EvidenceKey`.
///
/// A lane is flaky when, for one input fingerprint, the store holds both a pass
/// and a failure, or an attempt that failed and then passed on retry. A timeout
/// counts as a failure; skipped, cancelled and cached lanes are not evidence.
/// Flips count changes of outcome between consecutive runs with the same
/// fingerprint, as BuildPulse counts disruptions. A key whose newest evidence is
/// over 7 days old is reported as recovered. A test is held to the same rule
/// (`TestFold`).
package struct FlakyRanking<Key: EvidenceKey>: Sendable {
  package struct Entry: Sendable, Equatable {
    var key: Key
    /// Runs in which it passed or failed.
    var runs: Int
    /// Failed (or timed-out, or errored) attempts.
    var failures: Int
    var flakyFingerprints: Int
    var flips: Int
    var retriesPassed: Int
    /// When the newest evidence was seen (seconds since 1970).
    var lastSeen: Double
    var recovered: Bool
    /// The first line of a test's newest failure's message, if it had one; nil
    /// for a lane (its failures carry no message).
    var lastFailure: String? = nil
    /// Where its failures happened (`ci linux-1`, `host laptop`), when the
    /// window holds runs from more than one place (`history pull`).
    var failedOn: [String] = []

    var lane: String { key.lane }
  }

  var entries: [Entry]
  package var runsInWindow: Int
  /// The window's runs by where they came from, most first.
  package var origins: [OriginTally] = []
  /// How many keys passed or failed in the window, flaky or not: for tests, 0
  /// when no lane of it has `reports:`.
  var keysSeen = 0

  package static var definition: String { Key.flakyDefinition }

  package var flaky: [Entry] { entries.filter { !$0.recovered } }
  package var recovered: [Entry] { entries.filter(\.recovered) }

  /// Takes the window's origins and, when they are more than one, where each
  /// entry's failures happened.
  mutating func addOrigins(_ store: HistoryStore, last: Int, since: Double?) throws(HistoryError) {
    origins = try store.windowOrigins(last: last, since: since)
    guard origins.count > 1 else { return }
    for index in entries.indices {
      entries[index].failedOn = try entries[index].key.failureOrigins(in: store, last: last, since: since)
    }
  }
}

/// `duet flaky`: the lanes.
package typealias FlakyReport = FlakyRanking<LaneKey>
/// `duet flaky --tests`: the test cases of the lanes' reports (`TestFold`).
package typealias TestFlakyReport = FlakyRanking<TestKey>

extension FlakyRanking.Entry {
  /// Why it counts, in words: `both outcomes on one fingerprint, 3 failure(s) in 40 run(s)`.
  var why: String {
    var evidence: [String] = []
    if flakyFingerprints > 0 { evidence.append("both outcomes on \(flakyFingerprints == 1 ? "one fingerprint" : "\(flakyFingerprints) fingerprints")") }
    if retriesPassed > 0 { evidence.append("passed on a retry \(retriesPassed == 1 ? "once" : "\(retriesPassed) times")") }
    evidence.append("\(failures) failure(s) in \(runs) run(s)")
    if recovered { evidence.append("none in the last 7 days") }
    if !failedOn.isEmpty { evidence.append("failed on \(failedOn.joined(separator: " and "))") }
    return evidence.joined(separator: ", ")
  }
}

extension FlakyRanking where Key == LaneKey {
  /// The report over `runs` and their `steps`, as of `now`.
  static func compute(runs: [RunRow], steps: [StepRow], now: Double) -> FlakyReport {
    let (lanes, laneRuns) = LaneTally.fold(runs: runs, steps: steps)
    var evidence = FlakyEvidence()
    laneRuns.forEach { evidence.add($0) }
    return evidence.ranking(keys: lanes.map(LaneKey.init), runsInWindow: runs.count, now: now)
  }

  /// The report over the store's last `last` runs (those since `since` only), as
  /// of `now`, folded as the rows stream out of SQLite.
  package static func compute(store: HistoryStore, last: Int, since: Double?, now: Double) throws(HistoryError) -> FlakyReport {
    var evidence = FlakyEvidence()
    let window = try store.scanWindow(last: last, since: since, reading: .evidence) { evidence.add($0) }
    var report = evidence.ranking(keys: window.lanes.map(LaneKey.init), runsInWindow: window.runs, now: now)
    try report.addOrigins(store, last: last, since: since)
    return report
  }
}
