import Testing
@testable import DuetMocks

/// Issue 42, item 4: the mocks reports hold tree text (a mock file's
/// `output:`, an input's path found on disk), and the built-in lane logs them
/// as `duet mocks` prints them; a line break in a name must not start a line
/// of the log (`duet logs` writes it as it is), nor an escape reach it.
@Suite("mocks report lines")
struct MockReportLineTests {
  static let forged = "Mocks/a\n::error::forged.swift"
  static let retitle = "Sources/b\u{1B}]0;title\u{07}.swift"

  @Test func theCheckLaneLogsEachNameOnItsLine() {
    var report = MockCheckReport()
    report.files = [MockFileStatus(output: Self.forged, inputCount: 1, findings: [MockFinding(.stale, path: Self.retitle, "content differs from the recorded hash")])]
    #expect(report.text == """
      duet mocks --check: FAIL
        Mocks/a\\n::error::forged.swift is stale:
          stale: Sources/b\\u{1B}]0;title\\u{7}.swift — content differs from the recorded hash
      regenerate and commit: duet mocks

      """)
  }

  @Test func theImprintLaneLogsEachNameOnItsLine() {
    var report = MockImprintReport()
    report.files = [MockImprintReport.File(output: Self.forged, changed: true, generated: false, inputCount: 2)]
    report.refused = [MockImprint.Refusal(output: Self.retitle, message: "edited by hand")]
    #expect(report.text == """
      duet mocks: refused Sources/b\\u{1B}]0;title\\u{7}.swift: edited by hand
      wrote Mocks/a\\n::error::forged.swift (2 input(s))
      duet mocks: 1 of 2 mock file(s) written, 1 refused

      """)
  }
}
