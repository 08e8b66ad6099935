import Testing
@testable import DuetRun
@testable import DuetTestReports
@testable import DuetHistory

@Suite("A test's identity: where it ran")
struct TestIdentityTests {
  /// Gradle's variants share a class and name; what tells them apart is the
  /// folder between the report root and the file, and nothing is shown for a
  /// test whose name is its own.
  @Test func qualifiersNameWhatTellsNamesakesApart() {
    let debug = TestIdentity(lane: "unit", report: "app/build/test-results/testDebugUnitTest/TEST-A.xml", suite: "A", name: "t", ordinal: 0)
    let release = TestIdentity(lane: "unit", report: "app/build/test-results/testReleaseUnitTest/TEST-A.xml", suite: "A", name: "t", ordinal: 0)
    let alone = TestIdentity(lane: "unit", report: "app/build/test-results/testDebugUnitTest/TEST-A.xml", suite: "A", name: "u", ordinal: 0)
    let otherLane = TestIdentity(lane: "ui", report: "r.xml", suite: "A", name: "t", ordinal: 0)
    let second = TestIdentity(lane: "py", report: "junit.xml", suite: "s", name: "x", ordinal: 1)
    let first = TestIdentity(lane: "py", report: "junit.xml", suite: "s", name: "x", ordinal: 0)
    let q = TestIdentity.qualifiers([debug, release, alone, otherLane, first, second])
    #expect(q[debug] == "testDebugUnitTest" && q[release] == "testReleaseUnitTest")
    #expect(q[alone] == "" && q[otherLane] == "")
    #expect(q[first] == "#1" && q[second] == "#2")
    #expect(debug.label(qualifier: q[debug]!) == "A.t [testDebugUnitTest]")
    #expect(alone.label(qualifier: "") == "A.u")
  }

  /// The position among namesakes counts per report file and attempt's cases, in order.
  @Test func casesAreNumberedAmongTheirNamesakes() {
    let cases = [
      TestCaseResult(suite: "s", name: "x", outcome: .fail, duration: 0, report: "a.xml"),
      TestCaseResult(suite: "s", name: "x", outcome: .pass, duration: 0, report: "a.xml"),
      TestCaseResult(suite: "s", name: "x", outcome: .pass, duration: 0, report: "b.xml"),
      TestCaseResult(suite: "s", name: "y", outcome: .pass, duration: 0, report: "a.xml"),
      TestCaseResult(suite: "s", name: "x", outcome: .pass, duration: 0, report: "a.xml"),
    ]
    #expect(TestCaseRow.numbered(cases).map(\.1) == [0, 1, 0, 0, 2])
  }
}
