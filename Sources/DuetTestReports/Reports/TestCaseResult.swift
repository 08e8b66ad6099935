/// How one test case ended, as its JUnit report says.
public enum TestOutcome: String, Sendable, Codable, CaseIterable {
  case pass
  case fail
  case error
  case skipped

  /// A failure or an error: evidence against the test, as a failed attempt is against a lane.
  public var failed: Bool { self == .fail || self == .error }
}

/// One `<testcase>` of a lane's report.
public struct TestCaseResult: Sendable, Equatable {
  /// Its `classname`, else the name of the `<testsuite>` that holds it.
  public var suite: String
  public var name: String
  public var outcome: TestOutcome
  /// Seconds, from `time`: finite, from 0 to `TestCaseResult.maxDuration`, else 0.
  public var duration: Double
  /// The first line of its failure, error or skip message; nil when it has none.
  public var message: String?

  /// The longest duration a report may give a case (31 years), as the history store bounds a step's.
  public static let maxDuration = 1e9

  public init(suite: String, name: String, outcome: TestOutcome, duration: Double, message: String? = nil) {
    self.suite = suite
    self.name = name
    self.outcome = outcome
    self.duration = duration
    self.message = message
  }

  /// `suite.name`, or the name alone when there is no suite: how a person names the test.
  public var fullName: String { suite.isEmpty ? name : "\(suite).\(name)" }
}

/// What was read of one or more reports: the cases, as far as they were valid,
/// and what stopped or marred the reading, one warning per report.
public struct JUnitReading: Sendable, Equatable {
  public var cases: [TestCaseResult] = []
  public var warnings: [String] = []

  public init(cases: [TestCaseResult] = [], warnings: [String] = []) {
    self.cases = cases
    self.warnings = warnings
  }
}
