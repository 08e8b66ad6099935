import DuetOutput
import DuetSupport

/// `duet stats --json`: per lane, runs, pass rate and durations in the window.
package struct StatsJSON: Codable, Sendable, Equatable {
  /// What a lane's and a test's entries both say, after the key's own fields.
  struct Figures: Codable, Sendable, Equatable {
    var runs: Int
    /// 0 to 1: runs passed, retries allowed.
    var passRate: Double
    /// Over attempts.
    var p50Seconds: Double
    var p95Seconds: Double
    var maxSeconds: Double

    init<Key>(_ entry: StatsRanking<Key>.Entry) {
      (runs, passRate, p50Seconds, p95Seconds, maxSeconds) = (entry.runs, entry.passRate, entry.p50, entry.p95, entry.max)
    }
  }

  /// What only a lane's entry says; `slowdown` is null unless it is measured.
  struct LaneFigures: Codable, Sendable, Equatable {
    var attempts: Int
    /// Runs that passed only because the quarantine excused a failure (not in `passRate`).
    var excusedRuns: Int
    /// 0 to 1: runs whose first attempt passed.
    var firstTryPassRate: Double
    /// The median of the runs' totals, retries included.
    var runP50Seconds: Double
    var slower: Bool
    @Nullable var slowdown: Double?
  }

  var runsInWindow: Int
  /// The window's runs by where they came from (`ci JOB`, `host NAME`).
  var origins: [OriginTally]
  var lanes: [KeyedJSON<LaneKey.JSONFields, KeyedJSON<Figures, LaneFigures>>]

  package init(_ report: StatsReport) {
    runsInWindow = report.runsInWindow
    origins = report.origins
    lanes = report.entries.map { entry in
      let lane = LaneFigures(attempts: entry.attempts, excusedRuns: entry.excused, firstTryPassRate: entry.firstTryRate,
                             runP50Seconds: entry.runP50, slower: entry.slower, slowdown: entry.slowdown)
      return KeyedJSON(entry.key.jsonFields, KeyedJSON(Figures(entry), lane))
    }
  }
}

/// `duet stats --tests --json`: per test, runs, pass rate and durations in the window.
package struct TestStatsJSON: Codable, Sendable, Equatable {
  var runsInWindow: Int
  var tests: [KeyedJSON<TestKey.JSONFields, StatsJSON.Figures>]

  package init(_ report: TestStatsReport) {
    runsInWindow = report.runsInWindow
    tests = report.entries.map { KeyedJSON($0.key.jsonFields, StatsJSON.Figures($0)) }
  }
}
