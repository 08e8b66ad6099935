import DuetOutput
import DuetSupport

/// `duet stats --json`: per lane, runs, pass rate and durations in the window.
public struct StatsJSON: Codable, Sendable, Equatable {
  /// One lane; `slowdown` is null unless it is measured.
  public struct Lane: Codable, Sendable, Equatable {
    public var lane: String
    public var runs: Int
    public var attempts: Int
    /// 0 to 1: runs passed, retries allowed.
    public var passRate: Double
    /// 0 to 1: runs whose first attempt passed.
    public var firstTryPassRate: Double
    /// Over attempts.
    public var p50Seconds: Double
    public var p95Seconds: Double
    public var maxSeconds: Double
    /// The median of the runs' totals, retries included.
    public var runP50Seconds: Double
    public var slower: Bool
    @Nullable public var slowdown: Double?
  }

  public var runsInWindow: Int
  public var lanes: [Lane]

  public init(_ report: StatsReport) {
    runsInWindow = report.runsInWindow
    lanes = report.entries.map { entry in
      Lane(lane: entry.lane, runs: entry.runs, attempts: entry.attempts, passRate: entry.passRate, firstTryPassRate: entry.firstTryRate,
           p50Seconds: entry.p50, p95Seconds: entry.p95, maxSeconds: entry.max, runP50Seconds: entry.runP50,
           slower: entry.slower, slowdown: entry.slowdown)
    }
  }
}
