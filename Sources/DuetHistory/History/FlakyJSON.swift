import DuetSupport

/// `duet flaky --json`: every lane with flaky evidence in the window, flaky or recovered.
package struct FlakyJSON: Codable, Sendable, Equatable {
  /// One lane's evidence; `status` is `flaky` or `recovered`.
  package struct Lane: Codable, Sendable, Equatable {
    var lane: String
    var runs: Int
    var failures: Int
    var flakyFingerprints: Int
    var flips: Int
    var retriesPassed: Int
    /// ISO 8601, UTC.
    var lastSeen: String
    var status: String
    /// Where its failures happened, when the window holds runs from more than one place (`history pull`).
    var failedOn: [String]
  }

  var definition: String
  var runsInWindow: Int
  /// The window's runs by where they came from (`ci JOB`, `host NAME`).
  var origins: [OriginTally]
  var lanes: [Lane]

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
