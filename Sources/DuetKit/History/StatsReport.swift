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
    let started = Dictionary(uniqueKeysWithValues: runs.map { ($0.id, $0.started) })
    // Per lane and run: total seconds over attempts, and whether the lane passed.
    var byLane: [String: [String: (started: Double, seconds: Double, passed: Bool?)]] = [:]
    for step in steps {
      guard let runStart = started[step.runID], let outcome = step.attemptOutcome, outcome != "interrupted" else { continue }
      var entry = byLane[step.lane]?[step.runID] ?? (runStart, 0, nil)
      entry.seconds += step.duration
      if let final = step.laneOutcome { entry.passed = final == "pass" || final == "flaky" }
      byLane[step.lane, default: [:]][step.runID] = entry
    }
    var entries: [Entry] = []
    for (lane, perRun) in byLane {
      let ordered = perRun.values.sorted { $0.started < $1.started }
      let seconds = ordered.map(\.seconds)
      let passes = ordered.filter { $0.passed == true }.count
      var slowdown: Double?
      if seconds.count >= 25 {
        let recent = median(Array(seconds.suffix(5)))
        let before = median(Array(seconds.dropLast(5).suffix(20)))
        if before > 0 { slowdown = recent / before }
      }
      entries.append(Entry(lane: lane, runs: ordered.count, passRate: ordered.isEmpty ? 0 : Double(passes) / Double(ordered.count),
                           p50: percentile(seconds, 0.5), p95: percentile(seconds, 0.95), max: seconds.max() ?? 0,
                           slower: (slowdown ?? 0) > 1.5, slowdown: slowdown))
    }
    entries.sort { $0.lane < $1.lane }
    return StatsReport(entries: entries, runsInWindow: runs.count)
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The nearest-rank percentile: the smallest value with at least `p` of the values at or below it.
  static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up))
    return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
  }
}
