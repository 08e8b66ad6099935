import DuetSupport
import DuetTestReports

/// `verify --failed-tests`: the test cases of a lane's last run that failed,
/// which the lane runs alone this time (its command reads them from the file
/// `DUET_FAILED_TESTS` names and hands them to its runner). A pass of those
/// alone says nothing of the rest: it is recorded as such, never cached.
package struct FailedTestsOnly: Sendable, Equatable {
  /// `classname.name`, one per failed case, in the report's order.
  package var tests: [String]
  /// How many cases that run reported in all.
  package var total: Int

  /// `failed tests only: 1 of 3`, as the run's table says it.
  package var words: String { "failed tests only: \(tests.count) of \(total)" }
}

extension HistoryStore {
  /// For each lane whose newest recorded outcome is a failure (fail or
  /// timeout): the cases the last attempt of that run failed, when it
  /// recorded any. A lane that passed since, or failed without a failing
  /// case (a compile error), is not among them: it must run in full.
  package func failedTestsOfLastRun(lanes: [String]) throws(HistoryError) -> [String: FailedTestsOnly] {
    try reading {
      guard try hasTable("test_cases") else { return [:] }
      let newest = try db.prepare("""
        SELECT run_id, lane_outcome, attempt FROM steps
        WHERE lane = ? AND lane_outcome IS NOT NULL AND lane_outcome NOT IN (\(LaneOutcome.sqlList([.unaffected, .cached, .skipped, .cancelled])))
        ORDER BY started DESC, attempt DESC LIMIT 1
        """)
      let cases = try db.prepare("SELECT suite, name, outcome FROM test_cases WHERE run_id = ? AND lane = ? AND attempt = ? ORDER BY seq")
      var found: [String: FailedTestsOnly] = [:]
      for lane in lanes {
        try newest.bind([.text(lane)])
        guard try newest.step(), newest.row.count == 3, let run = newest.row[0].text,
              newest.row[1].text.flatMap(LaneOutcome.init(rawValue:))?.failsRun == true, let attempt = newest.row[2].int else { continue }
        try cases.bind([.text(run), .text(lane), .integer(Int64(attempt))])
        var failed: [String] = []
        var total = 0
        while try cases.step() {
          guard cases.row.count == 3, let suite = cases.row[0].text, let name = cases.row[1].text else { continue }
          total += 1
          let test = suite.isEmpty ? name : "\(suite).\(name)"
          // One a line: a name holding a line break cannot be written so.
          let outcome = cases.row[2].text.flatMap(TestOutcome.init(rawValue:))
          if outcome == .fail || outcome == .error, !test.contains(where: \.isNewline), !failed.contains(test) { failed.append(test) }
        }
        if !failed.isEmpty { found[lane] = FailedTestsOnly(tests: failed, total: total) }
      }
      return found
    }
  }
}
