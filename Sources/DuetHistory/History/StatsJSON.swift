import DuetOutput
import DuetSupport

/// `duet stats --json`: per lane, runs, pass rate and durations in the window.
package struct StatsJSON: Codable, Sendable, Equatable {
  /// One lane; `slowdown` is null unless it is measured.
  package struct Lane: Codable, Sendable, Equatable {
    var lane: String
    var runs: Int
    var attempts: Int
    /// 0 to 1: runs passed, retries allowed.
    var passRate: Double
    /// Runs that passed only because the quarantine excused a failure (not in `passRate`).
    var excusedRuns: Int
    /// 0 to 1: runs whose first attempt passed.
    var firstTryPassRate: Double
    /// Over attempts.
    var p50Seconds: Double
    var p95Seconds: Double
    var maxSeconds: Double
    /// The median of the runs' totals, retries included.
    var runP50Seconds: Double
    var slower: Bool
    @Nullable var slowdown: Double?
  }

  var runsInWindow: Int
  /// The window's runs by where they came from (`ci JOB`, `host NAME`).
  var origins: [OriginTally]
  var lanes: [Lane]

  package init(_ report: StatsReport) {
    runsInWindow = report.runsInWindow
    origins = report.origins
    lanes = report.entries.map { entry in
      Lane(lane: entry.lane, runs: entry.runs, attempts: entry.attempts, passRate: entry.passRate, excusedRuns: entry.excused, firstTryPassRate: entry.firstTryRate,
           p50Seconds: entry.p50, p95Seconds: entry.p95, maxSeconds: entry.max, runP50Seconds: entry.runP50,
           slower: entry.slower, slowdown: entry.slowdown)
    }
  }
}
