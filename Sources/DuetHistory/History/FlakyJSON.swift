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
    /// Where its failures happened, when the window holds runs from more than one place (`history pull`).
    package var failedOn: [String]
  }

  package var definition: String
  package var runsInWindow: Int
  /// The window's runs by where they came from (`ci JOB`, `host NAME`).
  package var origins: [OriginTally]
  package var lanes: [Lane]

  package init(_ report: FlakyReport) {
    definition = FlakyReport.definition
    runsInWindow = report.runsInWindow
    origins = report.origins
    lanes = report.entries.map { entry in
      Lane(lane: entry.lane, runs: entry.runs, failures: entry.failures, flakyFingerprints: entry.flakyFingerprints,
           flips: entry.flips, retriesPassed: entry.retriesPassed, lastSeen: ISOTime.text(entry.lastSeen),
           status: entry.recovered ? "recovered" : "flaky", failedOn: entry.failedOn)
    }
  }
}
