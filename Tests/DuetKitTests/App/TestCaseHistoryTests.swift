import Foundation
import Testing
@testable import DuetApp
@testable import DuetRun
@testable import DuetTestReports
@testable import DuetSupport
@testable import DuetHistory

/// Issue 40: after each attempt, the test cases of the lane's `reports:`
/// written during that attempt are recorded, and `flaky --tests` ranks them.
struct TestCaseHistoryTests {
  let tree: TemporaryFolder
  let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]

  /// A lane whose report says `app.CartTest.addsItem` fails on the first
  /// attempt and passes on the retry, beside a stale report from long ago.
  init() throws {
    tree = try TemporaryFolder()
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: unit
          retries: 1
          reports: ["out/*.xml"]
          sh: |
            mkdir -p out
            if [ -f out/.second ]; then
              printf '<testsuites><testsuite name="S"><testcase classname="app.CartTest" name="addsItem" time="0.5"/><testcase classname="app.CartTest" name="skips"><skipped/></testcase></testsuite></testsuites>' > out/junit.xml
            else
              touch out/.second
              printf '<testsuite name="S"><testcase classname="app.CartTest" name="addsItem" time="0.25"><failure message="expected 2&#10;got 1">trace</failure></testcase></testsuite>' > out/junit.xml
              exit 1
            fi
      """)
    try tree.write("out/stale.xml", "<testsuite><testcase classname=\"app.Old\" name=\"stale\"><failure/></testcase></testsuite>")
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                          ofItemAtPath: tree.url.appendingPathComponent("out/stale.xml").path)
  }

  func run() throws -> RunVerdict {
    var request = VerifyRequest(root: tree.url, duetVersion: "test", environment: environment)
    request.options.jobs = 1
    guard case .ran(let outcome, _) = try verify(request) else { throw CancellationError() }
    return outcome
  }

  /// Each attempt holds the cases its own report held; the stale report is
  /// read by neither; the store keeps lane, attempt, suite, name, outcome,
  /// duration and the failure's first line.
  @Test func eachAttemptRecordsTheReportsItWrote() throws {
    let outcome = try run()
    let attempts = outcome.lanes[0].attempts
    #expect(attempts.map(\.outcome) == [.fail, .pass])
    #expect(attempts[0].tests.cases == [TestCaseResult(suite: "app.CartTest", name: "addsItem", outcome: .fail, duration: 0.25, message: "expected 2", report: "out/junit.xml")])
    #expect(attempts[1].tests.cases.map(\.outcome) == [.pass, .skipped])
    #expect(attempts.allSatisfy { $0.tests.warnings.isEmpty })
    let store = try HistoryStore(path: tree.url.appendingPathComponent(".duet/history.sqlite").path, readOnly: true)
    let rows = try store.db.query("SELECT lane, attempt, suite, name, outcome, duration, message FROM test_cases ORDER BY attempt, seq")
    func shown(_ value: SQLiteValue) -> String {
      switch value {
      case .null: return "null"
      case .integer(let number): return "\(number)"
      case .real(let number): return "\(number)"
      case .text(let text): return text
      }
    }
    #expect(rows.map { $0.map(shown) } == [
      ["unit", "1", "app.CartTest", "addsItem", "fail", "0.25", "expected 2"],
      ["unit", "2", "app.CartTest", "addsItem", "pass", "0.5", "null"],
      ["unit", "2", "app.CartTest", "skips", "skipped", "0.0", "null"],
    ])
  }

  /// `flaky --tests` names the test that failed and then passed in the run,
  /// with its last failure; `--lane` of an unknown lane is a usage error.
  @Test func flakyTestsNamesTheTestThatPassedOnRetry() throws {
    _ = try run()
    var request = FlakyRequest(root: tree.url, environment: environment)
    request.ranking.tests = true
    guard case .tests(let report) = try flaky(request) else {
      Issue.record("expected a test report")
      return
    }
    #expect(report.flaky.map(\.key.fullName) == ["app.CartTest.addsItem"])
    #expect(report.flaky.first?.retriesPassed == 1)
    #expect(report.flaky.first?.lastFailure == "expected 2")
    let text = FlakyResponse.tests(report).printout(TextFormat(width: 200)).outText
    #expect(text.contains("\n  app.CartTest.addsItem (lane unit): 1 run(s), 1 failure(s), 0 flaky fingerprint(s), 0 flip(s), 1 retry(ies) passed; last seen "))
    #expect(text.contains("\n    last failed: expected 2\n"))
    // Issue 50, item 7: a lane neither the manifest nor the history knows is a
    // usage error, not "no flaky tests": the command line's one check (KnownLanes).
    let error = #expect(throws: UsageError.self) {
      try KnownLanes.check([LaneWord("other", origin: "--lane")], root: tree.url, environment: environment, orHistory: true, command: "flaky")
    }
    #expect(error?.message.hasPrefix("--lane: no lane 'other' in lanes/manifest.yaml or the history") == true, "\(String(describing: error))")
    try KnownLanes.check([LaneWord("unit", origin: "--lane")], root: tree.url, environment: environment, orHistory: true, command: "flaky")
  }

  /// A report that cannot be read whole (here cut off, and one that is a DTD)
  /// never fails its lane: the cases before the cut are recorded, and one
  /// warning per report names the lane, attempt, file and line.
  @Test func aBadReportIsAWarningNotAFailure() throws {
    let bad = try TemporaryFolder()
    try bad.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: cut
          reports: ["out/*.xml"]
          sh: |
            mkdir -p out
            printf '<testsuite name="S">\\n<testcase name="kept"/>\\n<testcase name="lost"' > out/a.xml
            printf '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&e;"/></testsuite>' > out/b.xml
      """)
    var request = VerifyRequest(root: bad.url, duetVersion: "test", environment: environment)
    request.options.jobs = 1
    guard case .ran(let outcome, let session) = try verify(request) else { throw CancellationError() }
    #expect(outcome.outcome == .pass)
    #expect(outcome.lanes[0].attempts[0].tests.cases.map(\.name) == ["kept"])
    #expect((session?.warnings ?? []).filter { $0.contains("report") } == [
      "lane 'cut' attempt 1: report out/a.xml: line 3: it ends inside a tag (a truncated report?)",
      "lane 'cut' attempt 1: report out/b.xml: line 1: it holds a document type declaration (<!DOCTYPE or <!ENTITY); duet reads no DTD and expands no entity, so it read no further",
    ])
  }
}
