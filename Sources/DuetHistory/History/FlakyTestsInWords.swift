import DuetSupport

/// The flaky tests of `duet report` and its page, named in words by the rule of
/// `duet flaky --tests` (`TestFlakyReport`): each test, its lane, why it counts
/// and how often it failed. Pure and unescaped: the terminal shows each part
/// through `ControlText.shown`, the page through `HTMLText.escaped`.
package struct FlakyTestsInWords: Sendable, Equatable {
  package struct Test: Sendable, Equatable {
    /// `suite.name`, as the report file names it.
    package var name: String
    package var lane: String
    /// `both outcomes on one fingerprint, 3 failure(s) in 40 run(s)`.
    package var why: String
  }

  /// The tests that are flaky (recovered ones left out), most evidence first.
  package var tests: [Test]

  /// Nil when the window recorded no test case (no lane has `reports:`): then the report says nothing of tests.
  package init?(_ report: TestFlakyReport?) {
    guard let report, report.keysSeen > 0 else { return nil }
    tests = report.flaky.map { Test(name: $0.key.label, lane: $0.lane, why: $0.why) }
  }

  /// `2 tests are flaky:` or `1 test is flaky:`; nil when none is.
  package var lead: String? {
    tests.isEmpty ? nil : tests.count == 1 ? "1 test is flaky:" : "\(tests.count) tests are flaky:"
  }

  /// The terminal's line (`duet report`), each name escaped as it goes in: one line, nothing a terminal acts on.
  package var line: TerminalLine {
    guard let lead else { return "\(FlakyTestsInWords.noneFlaky)" }
    let named: [TerminalLine] = tests.map { "\($0.name) in \($0.lane) (\($0.why))" }
    return "\(lead) \(named.joined(separator: ", "))"
  }

  /// What a window with tests and no flaky one says.
  package static let noneFlaky = "No test was flaky in the window (none passed and failed on one fingerprint, or passed on a retry)."
}
