import DuetSupport

/// Where the runs of a report window came from (`ci JOB`, `host NAME`), once
/// runs travel between clones (`history pull`): a report of the team's
/// evidence names them, and where each flaky lane or test failed. Runs
/// recorded before schema 6 have no origin and are not named.
package struct OriginTally: Codable, Sendable, Equatable {
  var origin: String
  var runs: Int

  /// `ci linux-1 (3), host laptop (1)`, each origin escaped as it goes in.
  package static func words(_ tallies: [OriginTally]) -> TerminalLine {
    tallies.map { "\($0.origin) (\($0.runs))" as TerminalLine }.joined(separator: ", ")
  }
}

extension HistoryStore {
  /// The window's runs (the newest `last`, those since `since` only) by
  /// origin, most runs first; empty for a store from before schema 6.
  package func windowOrigins(last: Int, since: Double?) throws(HistoryError) -> [OriginTally] {
    try reading {
      guard try hasColumn("origin", in: "runs") else { return [] }
      let rows = try db.query("""
        SELECT origin, count(*) FROM (
          SELECT origin FROM runs WHERE started >= ?2 ORDER BY started DESC, id DESC LIMIT ?1
        ) WHERE origin IS NOT NULL GROUP BY origin ORDER BY 2 DESC, 1
        """, [.integer(Int64(last)), .real(since ?? -Double.greatestFiniteMagnitude)])
      return rows.compactMap { row in
        guard row.count == 2, let origin = row[0].text else { return nil }
        return OriginTally(origin: origin, runs: Int(row[1].int ?? 0))
      }
    }
  }

  /// The origins of the window's runs in which `lane` had a failed or timed-out
  /// attempt (of test `test` when one is named), sorted.
  func failureOrigins(lane: String, test: TestIdentity? = nil, last: Int, since: Double?) throws(HistoryError) -> [String] {
    try reading {
      guard try hasColumn("origin", in: "runs") else { return [] }
      let window = "SELECT id FROM runs WHERE started >= ?3 ORDER BY started DESC, id DESC LIMIT ?2"
      let failing = test == nil
        ? "SELECT run_id FROM steps WHERE lane = ?1 AND attempt_outcome IN ('fail', 'timeout')"
        : "SELECT run_id FROM test_cases WHERE lane = ?1 AND report = ?4 AND suite = ?5 AND name = ?6 AND ordinal = ?7 AND outcome IN ('fail', 'error')"
      var arguments: [SQLiteValue] = [.text(lane), .integer(Int64(last)), .real(since ?? -Double.greatestFiniteMagnitude)]
      if let test { arguments += [.text(test.report), .text(test.suite), .text(test.name), .integer(Int64(test.ordinal))] }
      let rows = try db.query("""
        SELECT DISTINCT origin FROM runs WHERE origin IS NOT NULL AND id IN (\(window)) AND id IN (\(failing)) ORDER BY origin
        """, arguments)
      return rows.compactMap { $0.first?.text }
    }
  }
}
