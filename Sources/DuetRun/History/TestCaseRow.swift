import DuetTestReports
import DuetSupport

/// One test case of one attempt of one lane, as the history store keeps it
/// (`test_cases`, schema version 4): the case from the lane's reports, with the
/// run, lane and attempt it was read after. Its fingerprint is its step's.
package struct TestCaseRow: Sendable, Equatable {
  package var runID: String
  package var lane: String
  package var attempt: Int
  package var suite: String
  package var name: String
  package var outcome: TestOutcome
  package var duration: Double
  /// The first line of its failure, error or skip message.
  package var message: String?

  package init(runID: String, lane: String, attempt: Int, suite: String, name: String, outcome: TestOutcome, duration: Double, message: String? = nil) {
    self.runID = runID
    self.lane = lane
    self.attempt = attempt
    self.suite = suite
    self.name = name
    self.outcome = outcome
    self.duration = duration
    self.message = message
  }

  /// Every test case the run's attempts read, in lane, attempt and report order.
  package static func rows(for outcome: VerifyOutcome, id: String) -> [TestCaseRow] {
    outcome.run.records.flatMap { record in
      record.attempts.flatMap { attempt in
        attempt.tests.cases.map { test in
          TestCaseRow(runID: id, lane: record.name, attempt: attempt.attempt, suite: test.suite, name: test.name,
                      outcome: test.outcome, duration: test.duration, message: test.message)
        }
      }
    }
  }

  /// What the run's attempts could not read of their reports, one line each, naming the lane and attempt.
  package static func warnings(for outcome: VerifyOutcome) -> [String] {
    outcome.run.records.flatMap { record in
      record.attempts.flatMap { attempt in
        // A report's path and a test's name come from the tree: one line, nothing a terminal acts on.
        attempt.tests.warnings.map { "lane '\(record.name)' attempt \(attempt.attempt): report \(ControlText.shown($0))" }
      }
    }
  }
}
