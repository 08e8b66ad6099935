import DuetModel
import DuetSupport

/// `duet report`: the history's trends over a window of runs, read in one
/// streamed pass (each run's steps in primary-key order, no step row kept):
/// per lane its durations in run order (p50/p95 and a sparkline), cache hits,
/// the runs in which it failed or failed and then passed; the runs whose verdict
/// failed, with their failing lanes; and a flaky map of the newest runs.
package struct HistoryReport: Sendable {
  /// How each lane ended in one run of the flaky map.
  package enum Mark: UInt8, Sendable {
    case absent = 0, pass, retriedPass, fail, cached, other
    /// Passed only because the quarantine excused a failure: not a pass.
    case excused
  }

  package struct Lane: Sendable {
    package var name: String
    /// Seconds over its counted attempts, per run in which it ran, oldest first.
    package var durations: [Double] = []
    /// Seconds of each counted attempt, in no promised order: p50 and p95 are over attempts.
    var attemptDurations: [Double] = []
    package var cached = 0
    package var failedRuns = 0
    /// Runs in which an attempt failed and a later one passed.
    package var retriedRuns = 0
    /// Runs in which it passed only because the quarantine excused a failure.
    package var excusedRuns = 0
    /// Seconds of the attempt that passed, per run in which it passed, oldest first.
    var passDurations: [Double] = []
    /// Runs served from the cache, per ISO week (UTC) by the day number of its Monday.
    var cachedByWeek: [Int: Int] = [:]
    /// Per run of the map, oldest first.
    package var marks: [Mark]
    package var p50 = 0.0
    package var p95 = 0.0

    mutating func mark(_ mark: Mark, at column: Int) {
      while marks.count < column { marks.append(.absent) }
      marks.append(mark)
    }
  }

  package struct FailedRun: Sendable, Equatable {
    package var id: String
    package var started: Double
    package var lanes: [String]
  }

  /// Time the cache saved in one ISO week: each cached lane run estimated as
  /// its lane's median passing attempt in the window.
  package struct SavedWeek: Sendable, Equatable {
    /// Day number (days since 1970-01-01, UTC) of the week's Monday.
    var monday: Int
    /// Cached lane runs in the week, and those of them whose lane never passed in the window (no estimate).
    package var hits: Int
    package var unestimated: Int
    package var seconds: Double

    /// `2025-W14`: the ISO week-numbering year (that of the week's Thursday) and week.
    package var label: String {
      let thursday = HistoryReport.civil(monday + 3)
      let week = (thursday.dayOfYear - 1) / 7 + 1
      return "\(thursday.year)-W\(week < 10 ? "0" : "")\(week)"
    }

    /// `2025-03-31`, the Monday.
    package var from: String {
      let day = HistoryReport.civil(monday)
      func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
      return "\(day.year)-\(two(day.month))-\(two(day.day))"
    }
  }

  package var runs = 0
  /// The window's runs by where they came from, most first (`duet report` names them when more than one).
  package var origins: [OriginTally] = []
  package var lanes: [Lane] = []
  /// Time saved by the cache per ISO week, oldest first.
  package var savedByWeek: [SavedWeek] = []
  /// The runs of the flaky map, oldest first (the newest `mapRuns` of the window).
  package var mapRuns: [(id: String, started: Double)] = []
  /// Runs whose verdict failed, newest first (at most `failedLimit`).
  package var failedRuns: [FailedRun] = []
  package var failedRunCount = 0
  package var cacheHits = 0
  /// Lane runs that ran or were served from the cache.
  package var settled = 0
  /// The flaky tests of the window, by `duet flaky --tests`'s rule; nil when no lane recorded a test case.
  package var flakyTests: FlakyTestsInWords?
  /// The flaky lanes by `duet flaky`'s rule; nil when not computed (the page then names the retried lanes).
  package var flakyLanes: FlakyLanesInWords?
  /// The entries of `lanes/quarantine.yaml` when the report was made (read by the command, not the store).
  package var quarantine: [Quarantined] = []

  /// One quarantined test (or lane) as the report shows it.
  package struct Quarantined: Sendable, Equatable {
    /// `Suite.test in lane 'unit'`, or `lane 'unit'`.
    package var label: String
    package var until: String
    package var reason: String
    /// Whether it still counts today (else its failures block again).
    package var active: Bool

    package init(label: String, until: String, reason: String, active: Bool) {
      self.label = label
      self.until = until
      self.reason = reason
      self.active = active
    }
  }

  static let mapLimit = 60
  static let failedLimit = 20

  /// The report over the store's last `last` runs.
  package static func compute(store: HistoryStore, last: Int) throws(HistoryError) -> HistoryReport {
    do {
      var scan = ReportScan(last: last)
      try scan.read(store.db)
      return scan.finish()
    } catch {
      throw HistoryError.from(error, path: store.path)
    }
  }

  /// The day number (days since 1970-01-01, UTC) of the Monday of the ISO week holding `time` (seconds since 1970, UTC).
  static func monday(of time: Double) -> Int {
    let day = Int((time / 86_400).rounded(.down))
    // 1970-01-01 was a Thursday: Monday is 0.
    let weekday = ((day + 3) % 7 + 7) % 7
    return day - weekday
  }

  /// A day number as a civil date (proleptic Gregorian, H. Hinnant's days-to-civil), with its day of the year from 1.
  static func civil(_ days: Int) -> (year: Int, month: Int, day: Int, dayOfYear: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYearMarch = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthMarch = (5 * dayOfYearMarch + 2) / 153
    let day = dayOfYearMarch - (153 * monthMarch + 2) / 5 + 1
    let month = monthMarch < 10 ? monthMarch + 3 : monthMarch - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][month - 1] + (leap && month > 2 ? 1 : 0)
    return (year, month, day, before + day)
  }

  /// The lane with the largest p95, for the larger chart.
  package var slowest: Lane? { lanes.filter { !$0.durations.isEmpty }.max { ($0.p95, $1.name) < ($1.p95, $0.name) } }

  /// The nearest-rank `p` percentile of `values` by selection, not a sort.
  static func selected(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    var values = values
    let rank = NearestRank.rank(p, of: values.count)
    NearestRank.select(rank, in: &values, 0..<values.count)
    return values[rank]
  }

  /// `values` as at most `buckets` points, each the nearest-rank `p` percentile of its run of values.
  package static func buckets(_ values: [Double], count buckets: Int, p: Double) -> [Double] {
    guard !values.isEmpty else { return [] }
    let size = max(1, (values.count + buckets - 1) / buckets)
    return stride(from: 0, to: values.count, by: size).map { start in
      selected(Array(values[start..<min(values.count, start + size)]), p)
    }
  }

  /// `values` as at most `buckets` points, each the nearest-rank `p` percentile
  /// of the trailing window that ends with its bucket: whole buckets, and at
  /// least `minimum` values. At 60 runs or fewer a bucket is one run, whose p50
  /// and p95 are the same value; over the trailing runs they part (issue 41).
  package static func rolling(_ values: [Double], count buckets: Int, p: Double, minimum: Int = 10) -> [Double] {
    guard !values.isEmpty else { return [] }
    let size = max(1, (values.count + buckets - 1) / buckets)
    let window = max(size, minimum)
    return stride(from: 0, to: values.count, by: size).map { start in
      let end = min(values.count, start + size)
      return selected(Array(values[max(0, end - window)..<end]), p)
    }
  }
}

/// The one pass over the store behind `HistoryReport`.
struct ReportScan {
  let last: Int
  var report = HistoryReport()
  var laneIndex: [String: Int] = [:]
  var laneBytes: [[UInt8]] = []

  init(last: Int) { self.last = last }

  mutating func read(_ db: SQLiteDatabase) throws {
    let runList = try db.prepare("SELECT id, started, outcome FROM runs ORDER BY started DESC, id DESC LIMIT ?1")
    try runList.bind([.integer(Int64(last))])
    var runs: [(id: String, started: Double, failed: Bool)] = []
    while try runList.step() {
      let id = runList.text(at: 0).map { String(decoding: $0, as: UTF8.self) } ?? ""
      let failed = runList.text(at: 2).map { !ReportWindow.equal($0, "pass") } ?? false
      runs.append((id, StoredNumber.time(runList.double(at: 1)), failed))
    }
    report.runs = runs.count
    let mapStart = max(0, runs.count - HistoryReport.mapLimit)
    // A store opened read-only may predate schema 5's `excused`.
    let excused = try !db.query("SELECT 1 FROM pragma_table_info('steps') WHERE name = 'excused'").isEmpty ? "excused" : "NULL"
    let steps = try db.prepare("SELECT lane, attempt_outcome, lane_outcome, duration, \(excused) FROM steps WHERE run_id = ?1 ORDER BY lane, attempt")
    // A lane is looked for first at its place in the previous run, by its bytes: no string is made for a known lane.
    var previousOrder: [Int] = [], order: [Int] = []
    for (position, run) in runs.reversed().enumerated() {
      let mapColumn = position >= mapStart ? position - mapStart : nil
      if mapColumn != nil { report.mapRuns.append((run.id, run.started)) }
      try steps.bind([.text(run.id)])
      var failing: [String] = []
      var pending: Pending?
      order.removeAll(keepingCapacity: true)
      while try steps.step() {
        let name = steps.text(at: 0)
        if pending == nil || !ReportWindow.equal(name, laneBytes[pending!.lane]) {
          if let done = pending, settle(done, column: mapColumn, started: run.started) { failing.append(report.lanes[done.lane].name) }
          let lane = lane(for: name, guess: order.count < previousOrder.count ? previousOrder[order.count] : nil)
          order.append(lane)
          pending = Pending(lane: lane)
        }
        pending!.add(attempt: steps.text(at: 1), lane: steps.text(at: 2), seconds: StoredNumber.duration(steps.double(at: 3)))
        if steps.double(at: 4) != 0 { pending!.excused = true }
      }
      if let done = pending, settle(done, column: mapColumn, started: run.started) { failing.append(report.lanes[done.lane].name) }
      swap(&previousOrder, &order)
      if run.failed {
        report.failedRunCount += 1
        report.failedRuns.insert(HistoryReport.FailedRun(id: run.id, started: run.started, lanes: failing), at: 0)
        if report.failedRuns.count > HistoryReport.failedLimit { report.failedRuns.removeLast() }
      }
    }
  }

  /// One lane's attempts in one run, folded as they stream past.
  struct Pending {
    var lane: Int
    var ran = false, failed = false, passedAfterFailure = false, cached = false, laneFailed = false, excused = false
    var seconds = 0.0
    /// The first attempt's seconds and the later ones' (empty, unallocated, for one attempt).
    var firstSeconds = 0.0, retrySeconds: [Double] = []
    /// The seconds of the attempt that passed, if one did.
    var passSeconds: Double?

    mutating func add(attempt: UnsafeBufferPointer<UInt8>?, lane outcome: UnsafeBufferPointer<UInt8>?, seconds: Double) {
      if let kind = AttemptKind(bytes: attempt) {
        if ran { retrySeconds.append(seconds) } else { firstSeconds = seconds }
        ran = true
        self.seconds += seconds
        if kind == .failure { failed = true } else if failed { passedAfterFailure = true }
        if kind == .pass { passSeconds = seconds }
      }
      if let outcome {
        cached = ReportWindow.equal(outcome, "cached")
        laneFailed = ReportWindow.equal(outcome, "fail") || ReportWindow.equal(outcome, "timeout")
      }
    }
  }

  /// Adds a lane's run to its figures; returns whether it failed the run.
  mutating func settle(_ run: Pending, column: Int?, started: Double) -> Bool {
    // In place, through the array's modify accessor: no copy of the lane's arrays.
    if run.ran {
      report.lanes[run.lane].durations.append(run.seconds)
      report.lanes[run.lane].attemptDurations.append(run.firstSeconds)
      report.lanes[run.lane].attemptDurations += run.retrySeconds
    }
    if let seconds = run.passSeconds, !run.laneFailed { report.lanes[run.lane].passDurations.append(seconds) }
    if run.cached {
      report.lanes[run.lane].cached += 1
      report.cacheHits += 1
      report.lanes[run.lane].cachedByWeek[HistoryReport.monday(of: started), default: 0] += 1
    }
    if run.ran || run.cached { report.settled += 1 }
    if run.laneFailed { report.lanes[run.lane].failedRuns += 1 }
    if run.passedAfterFailure { report.lanes[run.lane].retriedRuns += 1 }
    if run.excused && !run.laneFailed { report.lanes[run.lane].excusedRuns += 1 }
    if let column {
      let mark: HistoryReport.Mark = run.laneFailed ? .fail : run.excused ? .excused : run.passedAfterFailure ? .retriedPass
        : run.cached ? .cached : run.ran ? .pass : .other
      report.lanes[run.lane].mark(mark, at: column)
    }
    return run.laneFailed
  }

  mutating func lane(for bytes: UnsafeBufferPointer<UInt8>?, guess: Int?) -> Int {
    if let guess, ReportWindow.equal(bytes, laneBytes[guess]) { return guess }
    let name = bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
    if let known = laneIndex[name] { return known }
    laneIndex[name] = report.lanes.count
    laneBytes.append(Array(name.utf8))
    report.lanes.append(HistoryReport.Lane(name: name, marks: []))
    return report.lanes.count - 1
  }

  func finish() -> HistoryReport {
    var report = report
    for index in report.lanes.indices {
      let columns = report.mapRuns.count
      while report.lanes[index].marks.count < columns { report.lanes[index].marks.append(.absent) }
      // Over attempts, as `duet stats` takes them; the attempts are not kept in order, so they are reordered in place.
      guard !report.lanes[index].attemptDurations.isEmpty else { continue }
      (report.lanes[index].p50, report.lanes[index].p95) = NearestRank.percentiles(&report.lanes[index].attemptDurations)
    }
    report.lanes.sort { $0.name < $1.name }
    report.savedByWeek = Self.saved(report.lanes)
    return report
  }

  /// Per ISO week, the cached lane runs, each estimated as its lane's median passing attempt.
  static func saved(_ lanes: [HistoryReport.Lane]) -> [HistoryReport.SavedWeek] {
    var weeks: [Int: HistoryReport.SavedWeek] = [:]
    for lane in lanes where !lane.cachedByWeek.isEmpty {
      let median = lane.passDurations.isEmpty ? nil : HistoryReport.selected(lane.passDurations, 0.5)
      for (monday, hits) in lane.cachedByWeek {
        weeks[monday, default: HistoryReport.SavedWeek(monday: monday, hits: 0, unestimated: 0, seconds: 0)].hits += hits
        if let median { weeks[monday]!.seconds += median * Double(hits) } else { weeks[monday]!.unestimated += hits }
      }
    }
    return weeks.values.sorted { $0.monday < $1.monday }
  }
}
