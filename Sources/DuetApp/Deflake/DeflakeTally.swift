import DuetRun
import DuetTestReports
import DuetHistory

/// The runs of a deflake as they end, counted for the lane or for one test:
/// what `FailureRate` is computed from. A run counts as failed when any of its
/// attempts failed: a pass on a retry hides a failure the rate must show.
struct DeflakeTally: Sendable {
  var runs = 0
  var failed = 0
  /// Runs whose reports did not hold the test (`--test`): not counted either way.
  var missing = 0
  var fingerprints: [String] = []
  var interrupted = false

  /// What one run's record of the lane says; the test's cases when `test` is given.
  mutating func add(_ record: LaneVerdict, fingerprint: String?, test: String?) {
    if let fingerprint, !fingerprints.contains(fingerprint) { fingerprints.append(fingerprint) }
    guard let test else {
      runs += 1
      if record.attempts.contains(where: { $0.outcome == .fail || $0.outcome == .timeout }) { failed += 1 }
      return
    }
    let cases = record.attempts.flatMap(\.tests.cases).filter { DeflakeTally.names($0, test) }
    guard !cases.isEmpty else {
      missing += 1
      return
    }
    runs += 1
    if cases.contains(where: { $0.outcome.failed }) { failed += 1 }
  }

  /// `classname.name` as `flaky --tests` shows it, or the name alone.
  static func names(_ found: TestCaseResult, _ test: String) -> Bool {
    found.name == test || "\(found.suite).\(found.name)" == test
  }

  var rate: FailureRate { FailureRate(failed: failed, runs: runs) }
}
