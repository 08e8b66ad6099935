import DuetSupport
import DuetOutput

/// `duet flaky --tests --json`: every test with flaky evidence in the window, flaky or recovered.
package struct TestFlakyJSON: Codable, Sendable, Equatable {
  /// One test's evidence; `status` is `flaky` or `recovered`.
  package struct Test: Codable, Sendable, Equatable {
    package var lane: String
    package var suite: String
    package var name: String
    package var runs: Int
    package var failures: Int
    package var flakyFingerprints: Int
    package var flips: Int
    package var retriesPassed: Int
    /// ISO 8601, UTC.
    package var lastSeen: String
    package var status: String
    @Nullable package var lastFailure: String?
  }

  package var definition: String
  package var runsInWindow: Int
  package var tests: [Test]

  package init(_ report: TestFlakyReport) {
    definition = TestFlakyReport.definition
    runsInWindow = report.runsInWindow
    tests = report.entries.map { entry in
      Test(lane: entry.lane, suite: entry.suite, name: entry.name, runs: entry.runs, failures: entry.failures,
           flakyFingerprints: entry.flakyFingerprints, flips: entry.flips, retriesPassed: entry.retriesPassed,
           lastSeen: ISOTime.text(entry.lastSeen), status: entry.recovered ? "recovered" : "flaky", lastFailure: entry.lastFailure)
    }
  }
}
