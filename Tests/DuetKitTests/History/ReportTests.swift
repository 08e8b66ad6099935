import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
@testable import DuetHistory

/// A synthetic history: runs in time order, each a list of (lane, fingerprint, attempt outcomes).
struct SyntheticHistory {
  var runs: [RunRow] = []
  var steps: [StepRow] = []

  mutating func run(at time: Double, _ lanes: [(String, String?, [String])]) {
    let id = "run-\(runs.count)"
    runs.append(RunRow(id: id, logID: id, started: time, ended: time + 1, command: "duet verify", root: "/t", gitCommit: nil,
                       host: "h", outcome: .pass, jobs: 2, duetVersion: "test"))
    for (lane, fingerprint, outcomes) in lanes {
      if outcomes.isEmpty {
        steps.append(StepRow(runID: id, lane: lane, attempt: 0, started: time, duration: 0, attemptOutcome: nil, laneOutcome: .skipped,
                             exitCode: nil, fingerprint: fingerprint, logPath: nil))
        continue
      }
      for (i, outcome) in outcomes.enumerated() {
        let last = i == outcomes.count - 1
        let final = outcome == "pass" ? (outcomes.count > 1 ? "flaky" : "pass") : outcome
        steps.append(StepRow(runID: id, lane: lane, attempt: i + 1, started: time, duration: 1, attemptOutcome: AttemptOutcome(rawValue: outcome),
                             laneOutcome: last ? LaneOutcome(rawValue: final) : nil, exitCode: outcome == "pass" ? 0 : 1, fingerprint: fingerprint, logPath: nil))
      }
    }
  }
}

@Suite("Flaky and stats reports")
struct ReportTests {
  let day = 86400.0

  /// A pass and a failure under one fingerprint make a lane flaky; under different fingerprints they do not.
  @Test func sameFingerprintPassAndFail() {
    var history = SyntheticHistory()
    history.run(at: 100, [("kotlin", "f1", ["fail"]), ("swift", "s1", ["fail"])])
    history.run(at: 200, [("kotlin", "f1", ["pass"]), ("swift", "s2", ["pass"])])
    let report = FlakyReport.compute(runs: history.runs, steps: history.steps, now: 300)
    #expect(report.flaky.map(\.lane) == ["kotlin"])
    let kotlin = report.flaky[0]
    #expect(kotlin.runs == 2 && kotlin.failures == 1 && kotlin.flakyFingerprints == 1 && kotlin.flips == 1 && kotlin.retriesPassed == 0)
    #expect(kotlin.lastSeen == 200)
  }

  /// A failed attempt that passed on retry is flaky even without a fingerprint.
  @Test func retryThatPassed() {
    var history = SyntheticHistory()
    history.run(at: 100, [("ui", nil, ["fail", "pass"])])
    let report = FlakyReport.compute(runs: history.runs, steps: history.steps, now: 200)
    #expect(report.flaky.map(\.lane) == ["ui"])
    #expect(report.flaky[0].retriesPassed == 1)
  }

  /// A timeout counts as a failure; skipped lanes are no evidence.
  @Test func timeoutsCountSkipsDoNot() {
    var history = SyntheticHistory()
    history.run(at: 100, [("a", "x", ["timeout"]), ("b", "y", [])])
    history.run(at: 200, [("a", "x", ["pass"]), ("b", "y", ["pass"])])
    history.run(at: 300, [("b", "y", [])])
    let report = FlakyReport.compute(runs: history.runs, steps: history.steps, now: 400)
    #expect(report.flaky.map(\.lane) == ["a"])
    #expect(report.flaky[0].failures == 1)
  }

  /// Evidence older than 7 days makes a lane recovered, listed apart.
  @Test func recoveredAfterSevenDays() {
    var history = SyntheticHistory()
    history.run(at: 0, [("old", "x", ["fail"]), ("new", "n", ["fail"])])
    history.run(at: 10, [("old", "x", ["pass"]), ("new", "n", ["pass"])])
    history.run(at: 8 * day, [("new", "n", ["fail"]), ("old", "x", ["pass"])])
    let report = FlakyReport.compute(runs: history.runs, steps: history.steps, now: 8 * day + 10)
    #expect(report.flaky.map(\.lane) == ["new"])
    #expect(report.recovered.map(\.lane) == ["old"])
  }

  /// More evidence ranks higher: flips, retries and flaky fingerprints together.
  @Test func ranking() {
    var history = SyntheticHistory()
    for i in 0..<6 {
      history.run(at: Double(i * 10), [("often", "o", [i % 2 == 0 ? "fail" : "pass"]), ("once", "p", [i == 0 ? "fail" : "pass"])])
    }
    let report = FlakyReport.compute(runs: history.runs, steps: history.steps, now: 100)
    #expect(report.flaky.map(\.lane) == ["often", "once"])
    #expect(report.flaky[0].flips == 5)
    #expect(report.flaky[1].flips == 1)
  }

  /// Stats: pass rate and nearest-rank percentiles over the lanes that ran.
  @Test func statsPercentiles() {
    var history = SyntheticHistory()
    for i in 0..<10 { history.run(at: Double(i), [("a", nil, [i < 8 ? "pass" : "fail"]), ("skipped", nil, [])]) }
    let report = StatsReport.compute(runs: history.runs, steps: history.steps)
    #expect(report.entries.map(\.lane) == ["a"])
    #expect(report.entries[0].runs == 10)
    #expect(report.entries[0].passRate == 0.8)
    #expect(NearestRank.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95) == 10)
    #expect(NearestRank.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5) == 5)
    #expect(NearestRank.median([4, 1, 3, 2]) == 2.5)
  }

  /// `slower` when the median of the last 5 runs is over 1.5x the median of the 20 before.
  @Test func slowdownFlag() {
    func report(recent: Double) -> StatsReport.Entry {
      var history = SyntheticHistory()
      for i in 0..<25 { history.run(at: Double(i), [("lane", nil, ["pass"])]) }
      for i in 20..<25 { history.steps[i].duration = recent }
      return StatsReport.compute(runs: history.runs, steps: history.steps).entries[0]
    }
    #expect(report(recent: 1.6).slower)
    #expect(!report(recent: 1.5).slower)
    var short = SyntheticHistory()
    for i in 0..<10 { short.run(at: Double(i), [("lane", nil, ["pass"])]) }
    #expect(StatsReport.compute(runs: short.runs, steps: short.steps).entries[0].slowdown == nil)
  }
}
