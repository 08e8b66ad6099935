import DuetSupport
import DuetOutput

/// `duet flaky --tests --json`: every test with flaky evidence in the window, flaky or recovered.
public struct TestFlakyJSON: Codable, Sendable, Equatable {
  /// One test's evidence; `status` is `flaky` or `recovered`.
  public struct Test: Codable, Sendable, Equatable {
    public var lane: String
    public var suite: String
    public var name: String
    public var runs: Int
    public var failures: Int
    public var flakyFingerprints: Int
    public var flips: Int
    public var retriesPassed: Int
    /// ISO 8601, UTC.
    public var lastSeen: String
    public var status: String
    @Nullable public var lastFailure: String?
  }

  public var definition: String
  public var runsInWindow: Int
  public var tests: [Test]

  public init(_ report: TestFlakyReport) {
    definition = TestFlakyReport.definition
    runsInWindow = report.runsInWindow
    tests = report.entries.map { entry in
      Test(lane: entry.lane, suite: entry.suite, name: entry.name, runs: entry.runs, failures: entry.failures,
           flakyFingerprints: entry.flakyFingerprints, flips: entry.flips, retriesPassed: entry.retriesPassed,
           lastSeen: ISOTime.text(entry.lastSeen), status: entry.recovered ? "recovered" : "flaky", lastFailure: entry.lastFailure)
    }
  }
}
