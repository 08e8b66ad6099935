/// Per-lane run counts, pass rates and durations over the history window, with a
/// `slower` flag when the median of a lane's last 5 runs is over 1.5× the median
/// of the 20 runs before them.
public struct StatsReport: Sendable {
  public struct Entry: Sendable, Equatable {
    public var lane: String
    /// Runs in which the lane ran (skipped, cancelled and cached runs are not counted).
    public var runs: Int
    public var passRate: Double
    public var p50: Double
    public var p95: Double
    public var max: Double
    public var slower: Bool
    /// Median of the last 5 runs over the median of the 20 before (nil without enough runs).
    public var slowdown: Double?
  }

  public var entries: [Entry]
  public var runsInWindow: Int

  public static func compute(runs: [RunRow], steps: [StepRow]) -> StatsReport {
    let (lanes, laneRuns) = LaneRun.fold(runs: runs, steps: steps)
    var durations = Durations()
    laneRuns.forEach { durations.add($0) }
    return durations.report(lanes: lanes, runsInWindow: runs.count)
  }

  /// The report over the store's last `last` runs, folded as the rows stream out of SQLite.
  public static func compute(store: HistoryStore, last: Int) throws(HistoryError) -> StatsReport {
    var durations = Durations()
    let window = try store.scanWindow(last: last, since: nil) { durations.add($0) }
    return durations.report(lanes: window.lanes, runsInWindow: window.runs)
  }

  /// Per lane, in run order: the seconds of each run it ran in, and how many it passed.
  /// Eight bytes a lane run: the percentiles need every value.
  struct Durations {
    var seconds: [[Double]] = []
    var passes: [Int] = []

    mutating func add(_ run: LaneRun) {
      while seconds.count <= run.lane { seconds.append([]); passes.append(0) }
      seconds[run.lane].append(run.seconds)
      if run.lanePassed { passes[run.lane] += 1 }
    }

    func report(lanes: [String], runsInWindow: Int) -> StatsReport {
      var entries: [Entry] = []
      for (index, inOrder) in seconds.enumerated() where !inOrder.isEmpty {
        var slowdown: Double?
        if inOrder.count >= 25 {
          let recent = median(Array(inOrder.suffix(5)))
          let before = median(Array(inOrder.dropLast(5).suffix(20)))
          if before > 0 { slowdown = recent / before }
        }
        let sorted = inOrder.sorted()
        entries.append(Entry(lane: lanes[index], runs: sorted.count, passRate: Double(passes[index]) / Double(sorted.count),
                             p50: percentile(sorted: sorted, 0.5), p95: percentile(sorted: sorted, 0.95), max: sorted.last!,
                             slower: (slowdown ?? 0) > 1.5, slowdown: slowdown))
      }
      entries.sort { $0.lane < $1.lane }
      return StatsReport(entries: entries, runsInWindow: runsInWindow)
    }
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The nearest-rank percentile: the smallest value with at least `p` of the values at or below it.
  static func percentile(_ values: [Double], _ p: Double) -> Double {
    percentile(sorted: values.sorted(), p)
  }

  static func percentile(sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p * Double(sorted.count)).rounded(.up))
    return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
  }
}
