import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetTestReports
@testable import DuetModel
@testable import DuetSupport
@testable import DuetHistory

/// The flaky and stats reports as they were computed before issue 20: every step
/// of the window as a `StepRow`, grouped in dictionaries. Kept here only to
/// check that the streaming reports give the same answers on a fixed store.
enum LegacyReports {
  static func flaky(runs: [RunRow], steps: [StepRow], now: Double) -> [FlakyReport.Entry] {
    let started = Dictionary(uniqueKeysWithValues: runs.map { ($0.id, $0.started) })
    struct LaneTally { var started: Double; var fingerprint: String?; var outcomes: [String] }
    var byLane: [String: [String: LaneTally]] = [:]
    for step in steps {
      guard let runStart = started[step.runID], let outcome = step.attemptOutcome?.rawValue, outcome != "interrupted" else { continue }
      var laneRun = byLane[step.lane]?[step.runID] ?? LaneTally(started: runStart, fingerprint: step.fingerprint, outcomes: [])
      laneRun.outcomes.append(outcome)
      byLane[step.lane, default: [:]][step.runID] = laneRun
    }
    var entries: [FlakyReport.Entry] = []
    for (lane, runsOfLane) in byLane {
      let ordered = runsOfLane.values.sorted { $0.started < $1.started }
      var failures = 0, flips = 0, retriesPassed = 0
      var lastSeen = -Double.infinity
      var outcomesByFingerprint: [String: (passed: Bool, failed: Bool)] = [:]
      var lastOutcomeByFingerprint: [String: Bool] = [:]
      for laneRun in ordered {
        let failed = laneRun.outcomes.filter { $0 == "fail" || $0 == "timeout" }.count
        failures += failed
        let finalPass = laneRun.outcomes.last == "pass"
        if failed > 0 && finalPass {
          retriesPassed += 1
          lastSeen = max(lastSeen, laneRun.started)
        }
        guard let fingerprint = laneRun.fingerprint else { continue }
        var seen = outcomesByFingerprint[fingerprint] ?? (false, false)
        if laneRun.outcomes.contains("pass") { seen.passed = true }
        if failed > 0 { seen.failed = true }
        outcomesByFingerprint[fingerprint] = seen
        if let previous = lastOutcomeByFingerprint[fingerprint], previous != finalPass {
          flips += 1
          lastSeen = max(lastSeen, laneRun.started)
        }
        lastOutcomeByFingerprint[fingerprint] = finalPass
      }
      let mixed = outcomesByFingerprint.values.filter { $0.passed && $0.failed }
      guard !mixed.isEmpty || retriesPassed > 0 else { continue }
      entries.append(FlakyReport.Entry(lane: lane, runs: ordered.count, failures: failures, flakyFingerprints: mixed.count, flips: flips,
                                       retriesPassed: retriesPassed, lastSeen: lastSeen, recovered: now - lastSeen > FlakyEvidence.recoveryAge))
    }
    entries.sort { a, b in
      if a.recovered != b.recovered { return !a.recovered }
      let scoreA = a.flips + a.retriesPassed + a.flakyFingerprints, scoreB = b.flips + b.retriesPassed + b.flakyFingerprints
      if scoreA != scoreB { return scoreA > scoreB }
      if a.failures != b.failures { return a.failures > b.failures }
      if a.lastSeen != b.lastSeen { return a.lastSeen > b.lastSeen }
      return a.lane < b.lane
    }
    return entries
  }

  /// As the old implementation grouped them, with the figures issue 41 asks for:
  /// p50, p95 and max over attempts, the median of the runs' totals beside them,
  /// and the runs whose first attempt passed.
  static func stats(runs: [RunRow], steps: [StepRow]) -> [StatsReport.Entry] {
    let started = Dictionary(uniqueKeysWithValues: runs.map { ($0.id, $0.started) })
    struct PerRun { var started: Double; var attempts: [(attempt: Int, seconds: Double, passed: Bool)] = []; var passed: Bool? }
    var byLane: [String: [String: PerRun]] = [:]
    for step in steps {
      guard let runStart = started[step.runID], let outcome = step.attemptOutcome?.rawValue, outcome != "interrupted", outcome != "error" else { continue }
      var entry = byLane[step.lane]?[step.runID] ?? PerRun(started: runStart)
      entry.attempts.append((step.attempt, step.duration, outcome == "pass"))
      if let final = step.laneOutcome { entry.passed = final == .pass || final == .flaky }
      byLane[step.lane, default: [:]][step.runID] = entry
    }
    var entries: [StatsReport.Entry] = []
    for (lane, perRun) in byLane {
      let ordered = perRun.values.sorted { $0.started < $1.started }
      let seconds = ordered.map { $0.attempts.reduce(0) { $0 + $1.seconds } }
      let attempts = ordered.flatMap { $0.attempts.map(\.seconds) }
      let passes = ordered.filter { $0.passed == true }.count
      let firstPasses = ordered.filter { $0.attempts.min { $0.attempt < $1.attempt }?.passed == true }.count
      var slowdown: Double?
      if seconds.count >= 25 {
        let recent = NearestRank.median(Array(seconds.suffix(5)))
        let before = NearestRank.median(Array(seconds.dropLast(5).suffix(20)))
        if before > 0 { slowdown = recent / before }
      }
      entries.append(StatsReport.Entry(lane: lane, runs: ordered.count, attempts: attempts.count,
                                       passRate: Double(passes) / Double(ordered.count), firstTryRate: Double(firstPasses) / Double(ordered.count),
                                       p50: NearestRank.percentile(attempts, 0.5), p95: NearestRank.percentile(attempts, 0.95),
                                       max: attempts.max() ?? 0, runP50: NearestRank.percentile(seconds, 0.5),
                                       slower: (slowdown ?? 0) > 1.5, slowdown: slowdown))
    }
    entries.sort { $0.lane < $1.lane }
    return entries
  }
}

/// A fixed store: 120 runs recorded out of time order, lanes that come and go
/// (names short, long and non-ASCII), retries, timeouts, interrupted and skipped
/// attempts, missing and changing fingerprints, from a fixed seed.
struct FixedStore {
  var runs: [RunRow] = []
  var steps: [StepRow] = []

  init() {
    var seed: UInt64 = 0x2545F4914F6CDD1D
    func next(_ bound: Int) -> Int {
      seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
      return Int(seed % UInt64(bound))
    }
    let lanes = ["a", "kotlin", "swift-ui-snapshot-tests-for-ipad", "thème", "design-tokens", "mocks", "zz-late-lane"]
    let base = 1_700_000_000.0
    for r in 0..<120 {
      // Recorded out of time order; distinct start times (equal ones have no order to keep).
      let slot = (r * 37) % 120
      let started = base + Double(slot) * 3600 + Double(next(1000)) / 1000
      let id = String(format: "%08x-run", next(1 << 30))
      runs.append(RunRow(id: id, logID: "log\(r)", started: started, ended: started + 60, command: "duet verify", root: "/t",
                         gitCommit: nil, host: "h", outcome: .pass, jobs: 2, duetVersion: "test"))
      for (index, lane) in lanes.enumerated() {
        if lane == "zz-late-lane" && slot < 60 { continue }
        if next(9) == 0 { continue }  // this lane is not in this run at all
        let fingerprint: String? = index == 0 ? nil : "\(lane)-\(slot / (5 + index))" + String(repeating: "f", count: next(3) * 30)
        if next(10) == 0 {
          steps.append(StepRow(runID: id, lane: lane, attempt: 0, started: started, duration: 0, attemptOutcome: nil,
                               laneOutcome: next(2) == 0 ? .skipped : .cached, exitCode: nil, fingerprint: fingerprint, logPath: nil))
          continue
        }
        let attempts = 1 + (next(5) == 0 ? 1 + next(2) : 0)
        var laneOutcome = "pass"
        for attempt in 1...attempts {
          let roll = next(20)
          let outcome = roll < 3 + index ? "fail" : roll == 19 ? "timeout" : roll == 18 && attempt == attempts ? "interrupted" : "pass"
          let last = attempt == attempts
          if last { laneOutcome = outcome == "pass" ? (attempts > 1 ? "flaky" : "pass") : outcome }
          steps.append(StepRow(runID: id, lane: lane, attempt: attempt, started: started + Double(attempt),
                               duration: Double(1 + next(400)) / 8 + (slot > 110 && index == 2 ? 40 : 0), attemptOutcome: AttemptOutcome(rawValue: outcome),
                               laneOutcome: last ? LaneOutcome(rawValue: laneOutcome) : nil, exitCode: outcome == "pass" ? 0 : 1, fingerprint: fingerprint, logPath: nil))
        }
      }
    }
  }

  /// The store on disk, written one run per transaction as verify does.
  func write(to path: String) throws -> HistoryStore {
    let store = try HistoryStore(path: path)
    let tests = testCases()
    for run in runs { try store.record(run, steps: steps.filter { $0.runID == run.id }, tests: tests.filter { $0.runID == run.id }) }
    return store
  }

  /// Issue 40: the test cases of every attempt that ran, from a seed of their
  /// own (the lanes' figures stay as they were): up to four tests per lane, some
  /// absent from an attempt, passing, failing, erroring or skipped.
  func testCases() -> [TestCaseRow] {
    var seed: UInt64 = 0x9E3779B97F4A7C15
    func next(_ bound: Int) -> Int {
      seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
      return Int(seed % UInt64(bound))
    }
    var rows: [TestCaseRow] = []
    for step in steps where step.attempt > 0 {
      for test in 0..<4 where next(6) != 0 {
        let roll = next(20)
        let outcome: TestOutcome = roll < 2 + test ? .fail : roll == 19 ? .error : roll == 18 ? .skipped : .pass
        rows.append(TestCaseRow(runID: step.runID, lane: step.lane, attempt: step.attempt, suite: test == 3 ? "" : "Suite\(test % 2)",
                                name: "t\(test)", outcome: outcome, duration: Double(next(100)) / 10, message: outcome.failed ? "boom \(next(3))" : nil))
      }
    }
    return rows
  }

  /// The test cases as lane steps, for the old flaky rule to judge: one "lane"
  /// per test, each case an attempt with its step's fingerprint; a skip is no attempt.
  func testsAsSteps() -> [StepRow] {
    let fingerprints = Dictionary(steps.map { ("\($0.runID)\u{0}\($0.lane)\u{0}\($0.attempt)", $0.fingerprint) }, uniquingKeysWith: { a, _ in a })
    return testCases().map { test in
      StepRow(runID: test.runID, lane: "\(test.lane)\u{0}\(test.suite)\u{0}\(test.name)", attempt: test.attempt, started: 0, duration: test.duration,
              attemptOutcome: test.outcome == .skipped ? nil : test.outcome.failed ? .fail : .pass,
              laneOutcome: test.outcome == .skipped ? nil : test.outcome.failed ? .fail : .pass, exitCode: nil,
              fingerprint: fingerprints["\(test.runID)\u{0}\(test.lane)\u{0}\(test.attempt)"] ?? nil, logPath: nil)
    }
  }

  /// The window as the old commands read it: the newest `last` runs, those since `since`.
  func window(last: Int, since: Double?) -> [RunRow] {
    let newest = runs.sorted { ($0.started, $0.id) > ($1.started, $1.id) }.prefix(last)
    return newest.filter { since == nil || $0.started >= since! }
  }
}

@Suite("History reports, streamed from the store")
struct ReportParityTests {
  /// On a fixed store, `duet flaky` gives the same lanes and figures as the old implementation, for several windows.
  @Test func flakySameAsBefore() throws {
    let folder = try TemporaryFolder()
    let fixed = FixedStore()
    let store = try fixed.write(to: folder.url.appendingPathComponent("h.sqlite").path)
    let now = fixed.runs.map(\.started).max()! + 3600
    for (last, since) in [(500, nil), (120, nil), (119, nil), (40, nil), (7, nil), (1, nil), (500, now - 30 * 3600), (20, now - 50 * 3600)] as [(Int, Double?)] {
      let window = fixed.window(last: last, since: since)
      let expected = LegacyReports.flaky(runs: window, steps: fixed.steps, now: now)
      let report = try FlakyReport.compute(store: store, last: last, since: since, now: now)
      #expect(report.runsInWindow == window.count)
      #expect(report.entries == expected, "last \(last), since \(String(describing: since))")
      #expect(FlakyReport.compute(runs: window, steps: fixed.steps, now: now).entries == expected)
    }
    #expect(!LegacyReports.flaky(runs: fixed.runs, steps: fixed.steps, now: now).isEmpty)
  }

  /// Issue 40: on the same seeded store, `duet flaky --tests` proves a test
  /// flaky by the lane rule: each test judged as a lane of its own gives the same
  /// figures, for several windows; `--lane` keeps that lane's tests only.
  @Test func flakyTestsFollowTheLaneRule() throws {
    let folder = try TemporaryFolder()
    let fixed = FixedStore()
    let store = try fixed.write(to: folder.url.appendingPathComponent("h.sqlite").path)
    let now = fixed.runs.map(\.started).max()! + 3600
    let asSteps = fixed.testsAsSteps()
    for (last, since) in [(500, nil), (120, nil), (40, nil), (7, nil), (1, nil), (500, now - 30 * 3600)] as [(Int, Double?)] {
      let expected = LegacyReports.flaky(runs: fixed.window(last: last, since: since), steps: asSteps, now: now).map { entry in
        let parts = entry.lane.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
        return [parts[0], parts[1], parts[2], "\(entry.runs) \(entry.failures) \(entry.flakyFingerprints) \(entry.flips) \(entry.retriesPassed) \(entry.lastSeen) \(entry.recovered)"]
      }
      let report = try TestFlakyReport.compute(store: store, last: last, since: since, now: now)
      #expect(report.runsInWindow == fixed.window(last: last, since: since).count)
      #expect(report.entries.map { [$0.lane, $0.key.identity.suite, $0.key.identity.name, "\($0.runs) \($0.failures) \($0.flakyFingerprints) \($0.flips) \($0.retriesPassed) \($0.lastSeen) \($0.recovered)"] } == expected,
              "last \(last), since \(String(describing: since))")
    }
    let all = try TestFlakyReport.compute(store: store, last: 500, since: nil, now: now)
    #expect(all.entries.count > 5 && all.entries.contains { $0.key.identity.suite.isEmpty } && all.entries.allSatisfy { $0.lastFailure?.hasPrefix("boom ") == true })
    let kotlin = try TestFlakyReport.compute(store: store, last: 500, since: nil, lane: "kotlin", now: now)
    #expect(!kotlin.entries.isEmpty && kotlin.entries == all.entries.filter { $0.lane == "kotlin" })
  }

  /// Issue 40: on the same seeded store, `duet stats --tests` gives each test
  /// the runs, pass rate and percentiles the lane rule gives a lane of its own.
  @Test func statsTestsFollowTheLaneRule() throws {
    let folder = try TemporaryFolder()
    let fixed = FixedStore()
    let store = try fixed.write(to: folder.url.appendingPathComponent("h.sqlite").path)
    let asSteps = fixed.testsAsSteps()
    for last in [500, 60, 3] {
      let expected = LegacyReports.stats(runs: fixed.window(last: last, since: nil), steps: asSteps).map { entry in
        entry.lane.replacingOccurrences(of: "\u{0}", with: "|") + " \(entry.runs) \(entry.passRate) \(entry.p50) \(entry.p95) \(entry.max)"
      }
      let report = try TestStatsReport.compute(store: store, last: last)
      #expect(report.entries.map { "\($0.lane)|\($0.key.identity.suite)|\($0.key.identity.name) \($0.runs) \($0.passRate) \($0.p50) \($0.p95) \($0.max)" } == expected, "last \(last)")
    }
    let all = try TestStatsReport.compute(store: store, last: 500)
    #expect(all.entries.count > 20 && all.entries.contains { $0.passRate < 1 } && all.entries.contains { $0.p95 > $0.p50 })
    #expect(try TestStatsReport.compute(store: store, last: 500, lane: "mocks").entries == all.entries.filter { $0.lane == "mocks" })
  }

  /// On a fixed store, `duet stats` gives the same runs, pass rates, percentiles and slowdowns as the old implementation.
  @Test func statsSameAsBefore() throws {
    let folder = try TemporaryFolder()
    let fixed = FixedStore()
    let store = try fixed.write(to: folder.url.appendingPathComponent("h.sqlite").path)
    for last in [500, 120, 60, 26, 3, 1] {
      let window = fixed.window(last: last, since: nil)
      let expected = LegacyReports.stats(runs: window, steps: fixed.steps)
      let report = try StatsReport.compute(store: store, last: last)
      #expect(report.runsInWindow == window.count)
      #expect(report.entries == expected, "last \(last)")
      #expect(StatsReport.compute(runs: window, steps: fixed.steps).entries == expected)
    }
    #expect(try StatsReport.compute(store: store, last: 500).entries.contains { $0.slower })
  }

  /// Selection puts at every rank what a sort would, for sorted, reversed, repeated and shuffled values.
  @Test func selectionMatchesSorting() {
    var generator = SystemRandomNumberGenerator()
    let inputs: [[Double]] = [
      [1], [2, 1], Array(repeating: 3, count: 9), (0..<50).map(Double.init), (0..<50).reversed().map(Double.init),
      (0..<200).map { _ in Double(Int.random(in: 0..<7, using: &generator)) }, (0..<333).map { _ in Double.random(in: 0..<10, using: &generator) },
    ]
    for input in inputs {
      let sorted = input.sorted()
      for k in 0..<input.count {
        var values = input
        NearestRank.select(k, in: &values, 0..<values.count)
        #expect(values[k] == sorted[k], "k \(k) of \(input)")
      }
      var values = input
      let p50 = NearestRank.rank(0.5, of: input.count), p95 = NearestRank.rank(0.95, of: input.count)
      NearestRank.select(p50, in: &values, 0..<values.count)
      NearestRank.select(p95, in: &values, p50..<values.count)
      #expect(values[p50] == NearestRank.percentile(input, 0.5) && values[p95] == NearestRank.percentile(input, 0.95))
    }
  }

  /// Figures worked out by hand on a small store: retries, flips per fingerprint, interrupted attempts not counted.
  @Test func handWorkedStore() throws {
    let folder = try TemporaryFolder()
    var history = SyntheticHistory()
    history.run(at: 100, [("ui", "u1", ["fail", "pass"]), ("api", "a1", ["pass"])])
    history.run(at: 200, [("ui", "u1", ["pass"]), ("api", "a1", ["fail"])])
    history.run(at: 300, [("ui", "u2", ["fail"]), ("api", "a1", ["pass"])])
    history.run(at: 400, [("ui", "u1", ["fail"]), ("api", "a2", ["interrupted"])])
    let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
    for run in history.runs { try store.record(run, steps: history.steps.filter { $0.runID == run.id }) }

    let flaky = try FlakyReport.compute(store: store, last: 10, since: nil, now: 500)
    #expect(flaky.runsInWindow == 4)
    // api: a1 went pass, fail, pass (2 flips); the interrupted run is no evidence.
    // ui: a retry passed at 100; u1 went pass (final at 100), pass, fail (1 flip at 400); u2 alone.
    // Both score 3; ui has more failures.
    #expect(flaky.entries == [
      FlakyReport.Entry(lane: "ui", runs: 4, failures: 3, flakyFingerprints: 1, flips: 1, retriesPassed: 1, lastSeen: 400, recovered: false),
      FlakyReport.Entry(lane: "api", runs: 3, failures: 1, flakyFingerprints: 1, flips: 2, retriesPassed: 0, lastSeen: 300, recovered: false),
    ])
    let newest = try FlakyReport.compute(store: store, last: 2, since: nil, now: 500)
    #expect(newest.runsInWindow == 2 && newest.entries.isEmpty)

    let stats = try StatsReport.compute(store: store, last: 10)
    #expect(stats.entries.map(\.lane) == ["api", "ui"])
    #expect(stats.entries[0].runs == 3 && stats.entries[0].passRate == 2.0 / 3)
    // ui: five attempts of 1 s (two in the run at 100), so p50 and max are 1 s over attempts and the run at 100 totals 2 s;
    // it passed the runs at 100 (on retry) and 200, and its first attempt passed only at 200.
    #expect(stats.entries[1].runs == 4 && stats.entries[1].attempts == 5 && stats.entries[1].p50 == 1 && stats.entries[1].max == 1)
    #expect(stats.entries[1].passRate == 0.5 && stats.entries[1].firstTryRate == 0.25 && stats.entries[1].runP50 == 1)
  }

  /// Issue 41, item 4: two 0.50 s attempts are p50 0.50 s (not 1.00 s, the run's
  /// total, which is its own column), and a lane that fails its first attempt in
  /// every run and passes on retry passes 100% of runs but 0% at the first try;
  /// `duet report` takes its p50 and p95 over attempts too.
  @Test func percentilesAreOverAttempts() throws {
    let folder = try TemporaryFolder()
    var history = SyntheticHistory()
    for time in [100.0, 200, 300] { history.run(at: time, [("ui", "u1", ["fail", "pass"])]) }
    let steps = history.steps.map { step -> StepRow in var step = step; step.duration = step.attemptOutcome == nil ? 0 : 0.5; return step }
    let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
    for run in history.runs { try store.record(run, steps: steps.filter { $0.runID == run.id }) }
    let entry = try #require(try StatsReport.compute(store: store, last: 10).entries.first)
    #expect(entry.p50 == 0.5 && entry.p95 == 0.5 && entry.max == 0.5 && entry.runP50 == 1.0, "\(entry)")
    #expect(entry.attempts == 6 && entry.passRate == 1 && entry.firstTryRate == 0, "\(entry)")
    let report = try HistoryReport.compute(store: store, last: 10)
    #expect(report.lanes.first?.p50 == 0.5 && report.lanes.first?.p95 == 0.5)
    #expect(report.lanes.first?.durations == [1.0, 1.0, 1.0])
  }

  /// Issue 41, item 5: at 60 runs or fewer each point of the slowest-lane chart
  /// is one run, so p50 and p95 were the same line; over the trailing runs they part.
  @Test func chartP95IsNotP50() {
    let values = (0..<20).map { $0 % 4 == 3 ? 10.0 : 1.0 }
    let p50 = HistoryReport.rolling(values, count: 60, p: 0.5), p95 = HistoryReport.rolling(values, count: 60, p: 0.95)
    #expect(p50.count == 20 && p95.count == 20)
    #expect(p50.allSatisfy { $0 == 1 }, "\(p50)")
    #expect(p95 == [1, 1, 1] + Array(repeating: 10, count: 17), "\(p95)")
    #expect(HistoryReport.buckets(values, count: 60, p: 0.95) == values)
    // Over 600 runs a point is a bucket of 10, and the window is that bucket.
    let many = (0..<600).map(Double.init)
    #expect(HistoryReport.rolling(many, count: 60, p: 0.95) == HistoryReport.buckets(many, count: 60, p: 0.95))
  }
}
