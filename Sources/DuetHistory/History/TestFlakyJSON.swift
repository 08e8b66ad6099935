import DuetSupport
import DuetOutput

/// `duet flaky --tests --json`: every test with flaky evidence in the window, flaky or recovered.
package struct TestFlakyJSON: Codable, Sendable, Equatable {
  /// One test's evidence; `status` is `flaky` or `recovered`.
  package struct Test: Codable, Sendable, Equatable {
    var lane: String
    var suite: String
    var name: String
    /// The report file it was read from, relative to the tree root: with
    /// `position`, what tells a test from its namesakes (issue 50).
    var report: String
    /// Its position among same-named cases of that report (0 for the first).
    var position: Int
    var runs: Int
    var failures: Int
    var flakyFingerprints: Int
    var flips: Int
    var retriesPassed: Int
    /// ISO 8601, UTC.
    var lastSeen: String
    var status: String
    @Nullable var lastFailure: String?
    /// Where its failures happened, when the window holds runs from more than one place (`history pull`).
    var failedOn: [String]
  }

  var definition: String
  var runsInWindow: Int
  /// The window's runs by where they came from (`ci JOB`, `host NAME`).
  var origins: [OriginTally]
  var tests: [Test]

  package init(_ report: TestFlakyReport) {
    definition = TestFlakyReport.definition
    runsInWindow = report.runsInWindow
    origins = report.origins
    tests = report.entries.map { entry in
      Test(lane: entry.lane, suite: entry.suite, name: entry.name, report: entry.identity.report, position: entry.identity.ordinal, runs: entry.runs, failures: entry.failures,
           flakyFingerprints: entry.flakyFingerprints, flips: entry.flips, retriesPassed: entry.retriesPassed,
           lastSeen: ISOTime.text(entry.lastSeen), status: entry.recovered ? "recovered" : "flaky", lastFailure: entry.lastFailure,
           failedOn: entry.failedOn)
    }
  }
}
