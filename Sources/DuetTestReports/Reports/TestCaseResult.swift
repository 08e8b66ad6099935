/// How one test case ended, as its JUnit report says.
package enum TestOutcome: String, Sendable, Codable, CaseIterable {
  case pass
  case fail
  case error
  case skipped

  /// A failure or an error: evidence against the test, as a failed attempt is against a lane.
  package var failed: Bool { self == .fail || self == .error }
}

/// One `<testcase>` of a lane's report.
package struct TestCaseResult: Sendable, Equatable {
  /// Its `classname`, else the name of the `<testsuite>` that holds it.
  package var suite: String
  package var name: String
  package var outcome: TestOutcome
  /// Seconds, from `time`: finite, from 0 to `TestCaseResult.maxDuration`, else 0.
  package var duration: Double
  /// The first line of its failure, error or skip message; nil when it has none.
  package var message: String?
  /// The report file it came from, relative to the tree root: part of the
  /// test's identity, so Gradle's debug and release variants (each a
  /// `TEST-<class>.xml` of the same cases) are two tests, not one retried.
  package var report = ""

  /// The longest duration a report may give a case (31 years), as the history store bounds a step's.
  static let maxDuration = 1e9

  init(suite: String, name: String, outcome: TestOutcome, duration: Double, message: String? = nil, report: String = "") {
    self.report = report
    self.suite = suite
    self.name = name
    self.outcome = outcome
    self.duration = duration
    self.message = message
  }

  /// `suite.name`, or the name alone when there is no suite: how a person names the test.
  package var fullName: String { suite.isEmpty ? name : "\(suite).\(name)" }
}

/// What was read of one or more reports: the cases, as far as they were valid,
/// and what stopped or marred the reading, one warning per report.
package struct JUnitReading: Sendable, Equatable {
  package var cases: [TestCaseResult] = []
  package var warnings: [String] = []

  package init(cases: [TestCaseResult] = [], warnings: [String] = []) {
    self.cases = cases
    self.warnings = warnings
  }
}
