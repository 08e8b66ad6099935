import Testing
@testable import DuetHistory
@testable import DuetSupport

/// `duet flaky` as text comes from the ranking (issue 54, item 1): the command
/// prints the rows and lines it is handed and reads no entry's fields one by one.
struct FlakyTableTests {
  static func time(_ seconds: Double) -> String { "t\(Int(seconds))" }

  @Test func aLaneARowWhereItFailedOnlyForATeam() {
    var entry = FlakyReport.Entry(lane: "ui", runs: 9, failures: 2, flakyFingerprints: 1, flips: 3, retriesPassed: 1, lastSeen: 100, recovered: false)
    entry.failedOn = ["ci linux-1", "host vm"]
    #expect(FlakyReport.tableHeader(team: false).map(\.text) == ["lane", "runs", "failures", "flaky fingerprints", "flips", "retries passed", "last seen"])
    #expect(FlakyReport.tableHeader(team: true).last?.text == "failed on")
    #expect(FlakyReport.tableRows([entry], team: false, time: Self.time).map { $0.map(\.text) }
      == [["ui", "9", "2", "1", "3", "1", "t100"]])
    #expect(FlakyReport.tableRows([entry], team: true, time: Self.time)[0].last?.text == "ci linux-1, host vm")
  }

  @Test func aTestInWordsItsLastFailureUnder() {
    var entry = TestFlakyReport.Entry(lane: "unit", suite: "app.A", name: "adds", runs: 9, failures: 2, flakyFingerprints: 1, flips: 3,
                                      retriesPassed: 1, lastSeen: 100, recovered: false, lastFailure: "expected <2>")
    #expect(entry.lines(time: Self.time).map(\.text) == [
      "  app.A.adds (lane unit): 9 run(s), 2 failure(s), 1 flaky fingerprint(s), 3 flip(s), 1 retry(ies) passed; last seen t100",
      "    last failed: expected <2>",
    ])
    entry.lastFailure = nil
    entry.failedOn = ["host vm"]
    #expect(entry.lines(time: Self.time).map(\.text) == [
      "  app.A.adds (lane unit): 9 run(s), 2 failure(s), 1 flaky fingerprint(s), 3 flip(s), 1 retry(ies) passed; last seen t100; failed on host vm",
    ])
  }
}
