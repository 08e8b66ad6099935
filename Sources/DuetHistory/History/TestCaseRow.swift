import DuetTestReports
import DuetSupport

/// One test case of one attempt of one lane, as the history store keeps it
/// (`test_cases`, schema version 4; `report` and `ordinal` since 5): the case
/// from the lane's reports, with the run, lane and attempt it was read after.
/// Its fingerprint is its step's. Its identity (`TestIdentity`) is where it ran:
/// lane, report file, suite, name and its position among same-named cases.
package struct TestCaseRow: Sendable, Equatable {
  var runID: String
  var lane: String
  var attempt: Int
  var suite: String
  var name: String
  var outcome: TestOutcome
  var duration: Double
  /// The first line of its failure, error or skip message.
  var message: String?
  /// The report file it was read from, relative to the tree root ("" in rows from before schema 5).
  var report: String
  /// Its position among the cases of the same report, suite and name in its
  /// attempt (0 for the first): parameterised cases that share one name.
  var ordinal: Int

  package init(runID: String, lane: String, attempt: Int, suite: String, name: String, outcome: TestOutcome, duration: Double,
               message: String? = nil, report: String = "", ordinal: Int = 0) {
    self.report = report
    self.ordinal = ordinal
    self.runID = runID
    self.lane = lane
    self.attempt = attempt
    self.suite = suite
    self.name = name
    self.outcome = outcome
    self.duration = duration
    self.message = message
  }

  /// The cases of one attempt, each with its position among those of the same
  /// report, suite and name before it.
  package static func numbered(_ cases: [TestCaseResult]) -> [(TestCaseResult, Int)] {
    var seen: [TestIdentity.Place: Int] = [:]
    return cases.map { test in
      let place = TestIdentity.Place(report: test.report, suite: test.suite, name: test.name)
      let ordinal = seen[place, default: 0]
      seen[place] = ordinal + 1
      return (test, ordinal)
    }
  }
}
