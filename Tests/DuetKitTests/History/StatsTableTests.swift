import Testing
@testable import DuetHistory
@testable import DuetSupport

/// `duet stats`' table comes from the ranking (issue 54, item 1): the command
/// prints the rows it is handed and reads no entry's fields one by one.
struct StatsTableTests {
  @Test func aLaneARow() {
    let report = StatsReport(entries: [
      .init(lane: "unit", runs: 10, attempts: 12, passRate: 0.8, excused: 1, firstTryRate: 0.7, p50: 1.5, p95: 12.25, max: 75,
            runP50: 3, slower: true, slowdown: 1.64),
      .init(lane: "lint <x>", runs: 4, attempts: 4, passRate: 1, firstTryRate: 1, p50: 0.25, p95: 0.5, max: 0.5,
            runP50: 0.25, slower: false, slowdown: nil),
    ], runsInWindow: 10)
    #expect(StatsReport.tableHeader.map(\.text) == ["lane", "runs", "attempts", "passed", "excused", "first try", "p50", "p95", "max", "run p50", "trend"])
    #expect(report.tableRows.map { $0.map(\.text) } == [
      ["unit", "10", "12", "80%", "1", "70%", "1.50s", "12.2s", "1m15s", "3.00s", "slower (1.6x)"],
      ["lint <x>", "4", "4", "100%", "0", "100%", "0.25s", "0.50s", "0.50s", "0.25s", ""],
    ])
  }

  @Test func aTestARowItsNameLast() {
    let key = TestKey(identity: TestIdentity(lane: "unit", report: "r.xml", suite: "app.A", name: "adds", ordinal: 0), qualifier: "#2")
    let report = TestStatsReport(entries: [
      .init(key: key, runs: 3, attempts: 3, passRate: 2.0 / 3, firstTryRate: 2.0 / 3, p50: 0.125, p95: 0.5, max: 0.5,
            runP50: 0.125, slower: false, slowdown: nil),
    ], runsInWindow: 3)
    #expect(TestStatsReport.tableHeader.map(\.text) == ["lane", "runs", "pass rate", "p50", "p95", "max", "test"])
    #expect(report.tableRows.map { $0.map(\.text) } == [["unit", "3", "67%", "0.12s", "0.50s", "0.50s", key.label]])
  }
}
