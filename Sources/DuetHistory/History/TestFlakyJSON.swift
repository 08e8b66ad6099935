import DuetSupport
import DuetOutput

/// `duet flaky --tests --json`: every test with flaky evidence in the window, flaky or recovered.
package struct TestFlakyJSON: Codable, Sendable, Equatable {
  /// One test's evidence; `status` is `flaky` or `recovered`.
  package struct Test: Codable, Sendable, Equatable {
    package var lane: String
    package var suite: String
    package var name: String
    /// The report file it was read from, relative to the tree root: with
    /// `position`, what tells a test from its namesakes (issue 50).
    package var report: String
    /// Its position among same-named cases of that report (0 for the first).
    package var position: Int
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
      Test(lane: entry.lane, suite: entry.suite, name: entry.name, report: entry.identity.report, position: entry.identity.ordinal, runs: entry.runs, failures: entry.failures,
           flakyFingerprints: entry.flakyFingerprints, flips: entry.flips, retriesPassed: entry.retriesPassed,
           lastSeen: ISOTime.text(entry.lastSeen), status: entry.recovered ? "recovered" : "flaky", lastFailure: entry.lastFailure)
    }
  }
}
