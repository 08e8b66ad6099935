import DuetSupport

/// `duet flaky --json`: every lane with flaky evidence in the window, flaky or recovered.
package struct FlakyJSON: Codable, Sendable, Equatable {
  /// One lane's evidence; `status` is `flaky` or `recovered`.
  package struct Lane: Codable, Sendable, Equatable {
    package var lane: String
    package var runs: Int
    package var failures: Int
    package var flakyFingerprints: Int
    package var flips: Int
    package var retriesPassed: Int
    /// ISO 8601, UTC.
    package var lastSeen: String
    package var status: String
  }

  package var definition: String
  package var runsInWindow: Int
  package var lanes: [Lane]

  package init(_ report: FlakyReport) {
    definition = FlakyReport.definition
    runsInWindow = report.runsInWindow
    lanes = report.entries.map { entry in
      Lane(lane: entry.lane, runs: entry.runs, failures: entry.failures, flakyFingerprints: entry.flakyFingerprints,
           flips: entry.flips, retriesPassed: entry.retriesPassed, lastSeen: ISOTime.text(entry.lastSeen),
           status: entry.recovered ? "recovered" : "flaky")
    }
  }
}
