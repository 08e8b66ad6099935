import DuetModel
import DuetSupport

/// Per-lane run counts, pass rates and durations over the history window, with a
/// `slower` flag when the median of a lane's last 5 runs is over 1.5× the median
/// of the 20 runs before them. The percentiles are over attempts, as the docs
/// say (two 0.50 s attempts are p50 0.50 s, not 1.01 s); a run's total, retries
/// included, is its own column.
package struct StatsReport: Sendable {
  package struct Entry: Sendable, Equatable {
    package var lane: String
    /// Runs in which the lane ran (skipped, cancelled and cached runs are not counted).
    package var runs: Int
    /// Counted attempts over those runs.
    package var attempts: Int
    /// Runs the lane passed (retries allowed) over `runs`; a run the quarantine excused is no pass.
    package var passRate: Double
    /// Runs that passed only because the quarantine excused a failure.
    package var excused = 0
    /// Runs whose first attempt passed over `runs`: a lane that fails its
    /// first attempt in every run and passes on retry is 0% here.
    package var firstTryRate: Double
    /// Over attempts.
    package var p50: Double
    package var p95: Double
    package var max: Double
    /// The median of the runs' totals (every attempt of the run).
    package var runP50: Double
    package var slower: Bool
    /// Median of the last 5 runs over the median of the 20 before (nil without enough runs).
    package var slowdown: Double?
  }

  package var entries: [Entry]
  package var runsInWindow: Int
  /// The window's runs by where they came from, most first.
  package var origins: [OriginTally] = []

  static func compute(runs: [RunRow], steps: [StepRow]) -> StatsReport {
    let (lanes, laneRuns) = LaneRun.fold(runs: runs, steps: steps)
    var durations = Durations()
    laneRuns.forEach { durations.add($0) }
    return durations.report(lanes: lanes, runsInWindow: runs.count)
  }

  /// The report over the store's last `last` runs, folded as the rows stream out of SQLite.
  package static func compute(store: HistoryStore, last: Int) throws(HistoryError) -> StatsReport {
    var durations = Durations()
    let window = try store.scanWindow(last: last, since: nil, reading: .durations) { durations.add($0) }
    var report = durations.report(lanes: window.lanes, runsInWindow: window.runs)
    report.origins = try store.windowOrigins(last: last, since: nil)
    return report
  }

  /// Per lane, in run order: the seconds of each run it ran in and of each
  /// attempt, and how many runs it passed and passed at once. Eight bytes a
  /// value: the percentiles need every one.
  struct Durations {
    var seconds: [[Double]] = []
    var attemptSeconds: [[Double]] = []
    var passes: [Int] = []
    var firstPasses: [Int] = []
    var excused: [Int] = []

    mutating func add(_ run: LaneRun) {
      while seconds.count <= run.lane {
        seconds.append([]); attemptSeconds.append([]); passes.append(0); firstPasses.append(0); excused.append(0)
      }
      seconds[run.lane].append(run.seconds)
      attemptSeconds[run.lane].append(run.firstSeconds)
      attemptSeconds[run.lane] += run.retrySeconds
      if run.excused { excused[run.lane] += 1 } else if run.lanePassed { passes[run.lane] += 1 }
      if run.firstPassed { firstPasses[run.lane] += 1 }
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
        var attempts = attemptSeconds[index]
        let (p50, p95) = StatsReport.percentiles(&attempts)
        var totals = inOrder
        let runP50 = StatsReport.percentiles(&totals).p50
        let runs = Double(inOrder.count)
        entries.append(Entry(lane: lanes[index], runs: inOrder.count, attempts: attempts.count, passRate: Double(passes[index]) / runs, excused: excused[index],
                             firstTryRate: Double(firstPasses[index]) / runs, p50: p50, p95: p95, max: attempts.max()!,
                             runP50: runP50, slower: (slowdown ?? 0) > 1.5, slowdown: slowdown))
      }
      entries.sort { $0.lane < $1.lane }
      return StatsReport(entries: entries, runsInWindow: runsInWindow)
    }
  }

  /// The nearest-rank p50 and p95 of `values` (not empty) by two selections,
  /// not a sort: the window may hold thousands of values a lane. Reorders `values`.
  static func percentiles(_ values: inout [Double]) -> (p50: Double, p95: Double) {
    let p50 = rank(0.5, of: values.count), p95 = Swift.max(p50, rank(0.95, of: values.count))
    select(p50, in: &values, 0..<values.count)
    select(p95, in: &values, p50..<values.count)
    return (values[p50], values[p95])
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
    sorted.isEmpty ? 0 : sorted[rank(p, of: sorted.count)]
  }

  /// The index of the nearest-rank `p` percentile among `count` sorted values.
  static func rank(_ p: Double, of count: Int) -> Int {
    Swift.max(0, Swift.min(count - 1, Int((p * Double(count)).rounded(.up)) - 1))
  }

  /// Quickselect: afterwards `values[k]` is what a sort would put there, with
  /// no larger value before it and no smaller one after it, within `range`.
  static func select(_ k: Int, in values: inout [Double], _ range: Range<Int>) {
    var low = range.lowerBound, high = range.upperBound - 1
    while low < high {
      // The median of three as the pivot, so sorted input is no worst case.
      let middle = low + (high - low) / 2
      if values[middle] < values[low] { values.swapAt(middle, low) }
      if values[high] < values[low] { values.swapAt(high, low) }
      if values[high] < values[middle] { values.swapAt(high, middle) }
      let pivot = values[middle]
      var i = low, j = high
      while i <= j {
        while values[i] < pivot { i += 1 }
        while pivot < values[j] { j -= 1 }
        if i <= j {
          values.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if k <= j { high = j } else if k >= i { low = i } else { return }
    }
  }
}
