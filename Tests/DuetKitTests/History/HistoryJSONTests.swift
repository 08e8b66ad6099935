import Foundation
import Testing
@testable import DuetRun
@testable import DuetOutput
@testable import DuetSupport
@testable import DuetHistory

/// `history`, `flaky` and `stats --json` as values: the bytes the dictionaries
/// printed, and a round trip.
struct HistoryJSONTests {
  /// The one time format of the JSON reports, written out independently of `ISOTime`.
  static func iso(_ seconds: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: 0)
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'+00:00'"
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }

  /// Every report prints a time as ISO 8601 in UTC with milliseconds and an
  /// explicit offset (verify --json printed seconds since 1970 before schema 2).
  @Test func oneTimeFormat() {
    #expect(ISOTime.text(1_796_321_903.25) == "2026-12-03T18:18:23.250+00:00")
    #expect(ReportJSON.schemaVersion == 2)
  }

  @Test func historyListBytesAsBefore() throws {
    let runs = [
      RunRow(id: "6fd2", logID: "20261203-181823-ba5544", started: 1_796_321_903, ended: 1_796_321_915.776406288146973,
             command: "duet verify --json", root: "/t", gitCommit: "929703e7", host: "vm", outcome: .pass, jobs: 2, duetVersion: "0.1.0"),
      RunRow(id: "77aa", logID: "20261203-181900-000000", started: 1_796_321_940.5, ended: 1_796_321_941,
             command: "duet verify", root: "/t", gitCommit: nil, host: "vm", outcome: .fail, jobs: 4, duetVersion: "0.1.0"),
    ]
    let failed = ["77aa": ["lint", "test"]]
    let report = HistoryListJSON(store: "/t/.duet/history.sqlite", runs: runs, failedLanes: failed)
    let legacy: [String: Any] = ["store": "/t/.duet/history.sqlite", "runs": runs.map { run -> [String: Any] in
      [
        "id": run.id, "logId": run.logID, "startedAt": Self.iso(run.started), "durationSeconds": run.ended - run.started,
        "outcome": run.outcome.rawValue, "gitCommit": run.gitCommit ?? NSNull(), "host": run.host, "origin": run.origin ?? NSNull(), "command": run.command,
        "jobs": run.jobs, "duetVersion": run.duetVersion, "failed": failed[run.id] ?? [],
      ]
    }]
    #expect(ReportJSON.text(report) == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(report))
  }

  @Test func noHistoryBytesAsBefore() throws {
    let report = NoHistoryJSON(store: "/t/.duet/history.sqlite")
    #expect(ReportJSON.text(report) == LegacyJSON.text(["store": "/t/.duet/history.sqlite", "runs": [Any](), "lanes": [Any]()]))
    #expect(try LegacyJSON.roundTrips(report))
  }

  @Test func flakyBytesAsBefore() throws {
    let report = FlakyReport(entries: [
      .init(lane: "ui", runs: 12, failures: 3, flakyFingerprints: 1, flips: 2, retriesPassed: 1, lastSeen: 1_796_321_903, recovered: false),
      .init(lane: "old", runs: 4, failures: 1, flakyFingerprints: 1, flips: 0, retriesPassed: 0, lastSeen: 1_700_000_000, recovered: true),
    ], runsInWindow: 40)
    let legacy: [String: Any] = ["definition": FlakyReport.definition, "runsInWindow": 40, "origins": [Any](), "lanes": report.entries.map { entry -> [String: Any] in
      ["lane": entry.lane, "runs": entry.runs, "failures": entry.failures, "flakyFingerprints": entry.flakyFingerprints,
       "flips": entry.flips, "retriesPassed": entry.retriesPassed, "lastSeen": Self.iso(entry.lastSeen),
       "status": entry.recovered ? "recovered" : "flaky", "failedOn": [Any]()]
    }]
    #expect(ReportJSON.text(FlakyJSON(report)) == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(FlakyJSON(report)))
  }

  @Test func statsBytesAsBefore() throws {
    let report = StatsReport(entries: [
      .init(lane: "build", runs: 30, attempts: 31, passRate: 0.9666666666666667, firstTryRate: 0.9333333333333333, p50: 0.003093719482421875,
            p95: 12.5, max: 60, runP50: 0.0031, slower: true, slowdown: 1.8),
      .init(lane: "lint", runs: 2, attempts: 2, passRate: 1, firstTryRate: 1, p50: 0.5, p95: 0.5, max: 0.5, runP50: 0.5, slower: false, slowdown: nil),
    ], runsInWindow: 30)
    let legacy: [String: Any] = ["runsInWindow": 30, "origins": [Any](), "lanes": report.entries.map { entry -> [String: Any] in
      ["lane": entry.lane, "runs": entry.runs, "attempts": entry.attempts, "passRate": entry.passRate, "excusedRuns": entry.excused,
       "firstTryPassRate": entry.firstTryRate,
       "p50Seconds": entry.p50, "p95Seconds": entry.p95, "maxSeconds": entry.max, "runP50Seconds": entry.runP50,
       "slower": entry.slower, "slowdown": entry.slowdown ?? NSNull()]
    }]
    #expect(ReportJSON.text(StatsJSON(report)) == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(StatsJSON(report)))
  }
  /// `flaky --tests --json` (issue 54, item 5): a test's entry is the lane's
  /// figures after its own fields, and its newest failure (null when it had none).
  @Test func testFlakyBytesAsBefore() throws {
    func test(_ name: String, ordinal: Int, recovered: Bool, lastFailure: String?, failedOn: [String]) -> TestFlakyReport.Entry {
      .init(key: TestKey(identity: TestIdentity(lane: "unit", report: "build/TEST-a.xml", suite: "app.A", name: name, ordinal: ordinal), qualifier: "#2"),
            runs: 9, failures: 2, flakyFingerprints: 1, flips: 3, retriesPassed: 1, lastSeen: 1_796_321_903, recovered: recovered,
            lastFailure: lastFailure, failedOn: failedOn)
    }
    var report = TestFlakyReport(entries: [test("adds", ordinal: 1, recovered: false, lastFailure: "expected <2>", failedOn: ["ci linux-1", "host vm"]),
                                           test("drops", ordinal: 0, recovered: true, lastFailure: nil, failedOn: [])], runsInWindow: 40)
    report.origins = [OriginTally(origin: "ci linux-1", runs: 30), OriginTally(origin: "host vm", runs: 10)]
    let legacy: [String: Any] = [
      "definition": TestFlakyReport.definition, "runsInWindow": 40,
      "origins": [["origin": "ci linux-1", "runs": 30], ["origin": "host vm", "runs": 10]],
      "tests": report.entries.map { entry -> [String: Any] in
        ["lane": "unit", "suite": "app.A", "name": entry.key.identity.name, "report": "build/TEST-a.xml", "position": entry.key.identity.ordinal,
         "runs": 9, "failures": 2, "flakyFingerprints": 1, "flips": 3, "retriesPassed": 1, "lastSeen": Self.iso(1_796_321_903),
         "status": entry.recovered ? "recovered" : "flaky", "lastFailure": entry.lastFailure ?? NSNull(), "failedOn": entry.failedOn]
      },
    ]
    #expect(ReportJSON.text(TestFlakyJSON(report)) == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(TestFlakyJSON(report)))
  }

  /// `stats --tests --json`: a test's entry has the lane's runs, pass rate and
  /// durations after its own fields, and nothing of attempts or trends.
  @Test func testStatsBytesAsBefore() throws {
    let key = TestKey(identity: TestIdentity(lane: "unit", report: "r.xml", suite: "", name: "bare", ordinal: 3))
    let report = TestStatsReport(entries: [
      .init(key: key, runs: 4, attempts: 5, passRate: 0.75, excused: 1, firstTryRate: 0.5, p50: 0.125, p95: 2.5, max: 3, runP50: 0.2, slower: true, slowdown: 2),
    ], runsInWindow: 4)
    let legacy: [String: Any] = ["runsInWindow": 4, "tests": [[
      "lane": "unit", "suite": "", "name": "bare", "report": "r.xml", "position": 3, "runs": 4, "passRate": 0.75,
      "p50Seconds": 0.125, "p95Seconds": 2.5, "maxSeconds": 3,
    ] as [String: Any]]]
    #expect(ReportJSON.text(TestStatsJSON(report)) == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(TestStatsJSON(report)))
  }
}
