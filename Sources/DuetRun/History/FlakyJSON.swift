import DuetSupport

/// `duet flaky --json`: every lane with flaky evidence in the window, flaky or recovered.
public struct FlakyJSON: Codable, Sendable, Equatable {
  /// One lane's evidence; `status` is `flaky` or `recovered`.
  public struct Lane: Codable, Sendable, Equatable {
    public var lane: String
    public var runs: Int
    public var failures: Int
    public var flakyFingerprints: Int
    public var flips: Int
    public var retriesPassed: Int
    /// ISO 8601, UTC.
    public var lastSeen: String
    public var status: String
  }

  public var definition: String
  public var runsInWindow: Int
  public var lanes: [Lane]

  public init(_ report: FlakyReport) {
    definition = FlakyReport.definition
    runsInWindow = report.runsInWindow
    lanes = report.entries.map { entry in
      Lane(lane: entry.lane, runs: entry.runs, failures: entry.failures, flakyFingerprints: entry.flakyFingerprints,
           flips: entry.flips, retriesPassed: entry.retriesPassed, lastSeen: ISOTime.text(entry.lastSeen),
           status: entry.recovered ? "recovered" : "flaky")
    }
  }
}
