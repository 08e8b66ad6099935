import DuetModel
import DuetSupport

/// Per-lane (or per test case) run counts, pass rates and durations over the
/// history window: one ranking over an `EvidenceKey`, sorted by key. A lane is
/// flagged `slower` when the median of its last 5 runs is over 1.5× the median
/// of the 20 runs before them. The percentiles are over attempts, as the docs
/// say (two 0.50 s attempts are p50 0.50 s, not 1.01 s); a run's total, retries
/// included, is its own column.
package struct StatsRanking<Key: EvidenceKey>: Sendable {
  package struct Entry: Sendable, Equatable {
    var key: Key
    /// Runs in which it ran (skipped, cancelled and cached runs are not counted).
    var runs: Int
    /// Counted attempts over those runs.
    var attempts: Int
    /// Runs it passed (retries allowed) over `runs`; a run the quarantine excused is no pass.
    var passRate: Double
    /// Runs that passed only because the quarantine excused a failure.
    var excused = 0
    /// Runs whose first attempt passed over `runs`: a lane that fails its
    /// first attempt in every run and passes on retry is 0% here.
    var firstTryRate: Double
    /// Over attempts.
    var p50: Double
    var p95: Double
    var max: Double
    /// The median of the runs' totals (every attempt of the run).
    var runP50: Double
    var slower: Bool
    /// Median of the last 5 runs over the median of the 20 before (nil without enough runs).
    var slowdown: Double?

    var lane: String { key.lane }
  }

  package var entries: [Entry]
  package var runsInWindow: Int
  /// The window's runs by where they came from, most first.
  package var origins: [OriginTally] = []
}

/// `duet stats`: the lanes.
package typealias StatsReport = StatsRanking<LaneKey>
/// `duet stats --tests`: the test cases of the lanes' reports (`TestFold`).
package typealias TestStatsReport = StatsRanking<TestKey>

extension StatsRanking where Key == LaneKey {
  static func compute(runs: [RunRow], steps: [StepRow]) -> StatsReport {
    let (lanes, laneRuns) = LaneTally.fold(runs: runs, steps: steps)
    var durations = StatsDurations()
    laneRuns.forEach { durations.add($0) }
    return durations.ranking(keys: lanes.map(LaneKey.init), runsInWindow: runs.count)
  }

  /// The report over the store's last `last` runs, folded as the rows stream out of SQLite.
  package static func compute(store: HistoryStore, last: Int) throws(HistoryError) -> StatsReport {
    var durations = StatsDurations()
    let window = try store.scanWindow(last: last, since: nil, reading: .durations) { durations.add($0) }
    var report = durations.ranking(keys: window.lanes.map(LaneKey.init), runsInWindow: window.runs)
    report.origins = try store.windowOrigins(last: last, since: nil)
    return report
  }
}

/// Per key, in run order: the seconds of each run it ran in and of each
/// attempt, and how many runs it passed and passed at once, fed `LaneTally`s
/// whose `lane` indexes the keys. Eight bytes a value: the percentiles need
/// every one.
struct StatsDurations {
  var seconds: [[Double]] = []
  var attemptSeconds: [[Double]] = []
  var passes: [Int] = []
  var firstPasses: [Int] = []
  var excused: [Int] = []

  mutating func add(_ run: LaneTally) {
    while seconds.count <= run.lane {
      seconds.append([]); attemptSeconds.append([]); passes.append(0); firstPasses.append(0); excused.append(0)
    }
    seconds[run.lane].append(run.seconds)
    attemptSeconds[run.lane].append(run.firstSeconds)
    attemptSeconds[run.lane] += run.retrySeconds
    if run.excused { excused[run.lane] += 1 } else if run.lanePassed { passes[run.lane] += 1 }
    if run.firstPassed { firstPasses[run.lane] += 1 }
  }

  /// Every key that ran, `names[i]` for the durations of index `i`, in the keys' order.
  func ranking<Key>(keys names: [Key], runsInWindow: Int) -> StatsRanking<Key> {
    var entries: [StatsRanking<Key>.Entry] = []
    for (index, inOrder) in seconds.enumerated() where !inOrder.isEmpty {
      var slowdown: Double?
      if inOrder.count >= 25 {
        let recent = NearestRank.median(Array(inOrder.suffix(5)))
        let before = NearestRank.median(Array(inOrder.dropLast(5).suffix(20)))
        if before > 0 { slowdown = recent / before }
      }
      var attempts = attemptSeconds[index]
      let (p50, p95) = NearestRank.percentiles(&attempts)
      var totals = inOrder
      let runP50 = NearestRank.percentiles(&totals).p50
      let runs = Double(inOrder.count)
      entries.append(.init(key: names[index], runs: inOrder.count, attempts: attempts.count, passRate: Double(passes[index]) / runs, excused: excused[index],
                           firstTryRate: Double(firstPasses[index]) / runs, p50: p50, p95: p95, max: attempts.max()!,
                           runP50: runP50, slower: (slowdown ?? 0) > 1.5, slowdown: slowdown))
    }
    entries.sort { $0.key < $1.key }
    return StatsRanking(entries: entries, runsInWindow: runsInWindow)
  }
}
