import Foundation
import Testing
@testable import DuetRun
@testable import DuetTestReports
@testable import DuetModel
@testable import DuetSupport
@testable import DuetRunReports
@testable import DuetHistory

/// The quarantine as the run loop applies it (issue 40), driven by hand: a
/// failed attempt whose report's failures are all quarantined passes, with a
/// note and its cases still on the attempt; any other failure still fails.
@Suite("Quarantine in the run loop")
struct QuarantineLoopTests {
  func failed(_ name: String) -> TestCaseResult { TestCaseResult(suite: "app.T", name: name, outcome: .fail, duration: 0, report: "r.xml") }

  @Test func allQuarantinedFailuresPassAndAnyOtherFails() {
    var spec = lanes([("unit", []), ("after", ["unit"]), ("mixed", []), ("ui", []), ("plain", [])])
    for index in [0, 2] { spec[index].reports = ["r.xml"] }
    let cases: [String: [TestCaseResult]] = [
      "unit": [failed("flips"), failed("flops"), TestCaseResult(suite: "app.T", name: "ok", outcome: .pass, duration: 0, report: "r.xml")],
      "mixed": [failed("flips"), failed("real")],
    ]
    let reading = ReportReading(snapshot: { _ in TestReportSnapshot() },
                                read: { lane, _, _ in JUnitReading(cases: cases[lane.name] ?? []) })
    let today = QuarantineDate("2026-12-05")!
    let rule = QuarantineRule(entries: [
      QuarantineEntry(test: "app.T.fl*", lane: "unit", reason: "r", until: today),
      QuarantineEntry(test: "app.T.flips", lane: "mixed", reason: "r", until: today),
      QuarantineEntry(test: nil, lane: "ui", reason: "r", until: QuarantineDate("2027-01-01")!),
      QuarantineEntry(test: nil, lane: "plain", reason: "r", until: QuarantineDate("2026-12-04")!),
    ], today: today)
    let poller = FakePoller(script: ["unit": [.fail], "mixed": [.fail], "ui": [.fail], "plain": [.fail]])
    let (result, by) = schedule(spec, runner: poller, reports: reading, quarantine: rule)
    #expect(by["unit"]?.outcome == .pass)
    #expect(by["unit"]?.last?.note == "2 quarantined failures: app.T.flips, app.T.flops")
    #expect(by["unit"]?.last?.tests.cases.count == 3)
    #expect(by["unit"]?.last?.exitCode == 1)
    #expect(by["after"]?.outcome == .pass)
    #expect(by["mixed"]?.outcome == .fail)
    #expect(by["ui"]?.outcome == .pass && by["ui"]?.last?.note == "quarantined until 2027-01-01")
    #expect(by["plain"]?.outcome == .fail)
    #expect(result.failed.map(\.name) == ["mixed", "plain"])
    let rows = RunText.summaryRows(result)
    #expect(rows.first { $0[0] == "unit" }?[4] == "2 quarantined failures: app.T.flips, app.T.flops")
  }

  /// `quarantine suggest`: a flaky test no entry in date covers is suggested
  /// (an expired entry covers nothing, a lane-level one covers its lane's tests); a test entry is ready to release only
  /// when every test it matches passed its last 10 runs in a row.
  @Test func suggestionsToQuarantineAndToRelease() {
    func flaky(_ name: String, lane: String = "unit") -> TestFlakyReport.Entry {
      TestFlakyReport.Entry(lane: lane, suite: "app.T", name: name, runs: 3, failures: 1, flakyFingerprints: 1, flips: 1,
                            retriesPassed: 0, lastSeen: 0, recovered: false, lastFailure: nil)
    }
    let today = QuarantineDate("2026-12-05")!
    let entries = [
      QuarantineEntry(test: "app.T.covered", lane: "unit", reason: "r", until: today),
      QuarantineEntry(test: "app.T.gone", lane: "unit", reason: "r", until: QuarantineDate("2026-12-04")!),
      QuarantineEntry(test: "app.S.*", lane: "unit", reason: "r", until: today),
      QuarantineEntry(test: "app.U.*", lane: "unit", reason: "r", until: today),
      QuarantineEntry(test: nil, lane: "ui", reason: "r", until: today),
    ]
    let streaks = ["unit": ["app.S.a": 12, "app.S.b": 10, "app.U.a": 12, "app.U.b": 9]]
    let found = QuarantineSuggestions.suggest(flaky: [flaky("covered"), flaky("gone"), flaky("new"), flaky("whole", lane: "ui")], entries: entries,
                                              streaks: streaks, today: today)
    #expect(found.quarantine.map(\.key.identity.name) == ["gone", "new"])
    #expect(found.release.map(\.entry.test) == ["app.S.*"])
    #expect(found.release.first?.passes == 10)
  }

  /// The command `suggest` prints for a test whose name holds a line break or
  /// an escape names that test: each such character is `?` (one character),
  /// where the shown `\n` would quarantine a test of another name, and no one.
  @Test func aSuggestedPatternMatchesANameWithControls() {
    let name = "app.T.a\nb\u{1B}[31mc\u{2028}d"
    let pattern = QuarantineSuggestions.typedPattern(for: name)
    #expect(pattern == "app.T.a?b?[31mc?d")
    #expect(QuarantineEntry(test: pattern, lane: "unit", reason: "r", until: QuarantineDate("2026-12-05")!).matches(test: name))
    #expect(QuarantineSuggestions.typedPattern(for: "app.T.plain") == "app.T.plain")
  }

  /// Issue 40: an entry with an `added` day is ready to release only on the
  /// passes since that day; one without (an older file) on the newest runs.
  @Test func releaseCountsThePassesSinceTheEntryWasAdded() {
    let today = QuarantineDate("2026-12-05")!, added = QuarantineMoment("2026-12-01")!
    let entries = [
      QuarantineEntry(test: "app.S.a", lane: "unit", reason: "r", until: today, added: added),
      QuarantineEntry(test: "app.S.b", lane: "unit", reason: "r", until: today, added: added),
      QuarantineEntry(test: "app.S.c", lane: "unit", reason: "r", until: today),
    ]
    let streaks = ["unit": ["app.S.a": 30, "app.S.b": 30, "app.S.c": 30]]
    let since = [added: ["unit": ["app.S.a": 4, "app.S.b": 11]]]
    let found = QuarantineSuggestions.suggest(flaky: [], entries: entries, streaks: streaks, since: since, today: today)
    #expect(found.release.map(\.entry.test) == ["app.S.b", "app.S.c"])
    #expect(found.release.map(\.passes) == [11, 30])
  }
}
