import DuetSupport
import DuetOutput

/// `duet flaky --json`: every lane with flaky evidence in the window, flaky or recovered.
package struct FlakyJSON: Codable, Sendable, Equatable {
  /// One key's evidence, after its own fields; `status` is `flaky` or `recovered`.
  struct Figures: Codable, Sendable, Equatable {
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

    init<Key>(_ entry: FlakyRanking<Key>.Entry) {
      (runs, failures, flakyFingerprints, flips, retriesPassed) = (entry.runs, entry.failures, entry.flakyFingerprints, entry.flips, entry.retriesPassed)
      (lastSeen, status, failedOn) = (ISOTime.text(entry.lastSeen), entry.recovered ? "recovered" : "flaky", entry.failedOn)
    }
  }

  var definition: String
  var runsInWindow: Int
  /// The window's runs by where they came from (`ci JOB`, `host NAME`).
  var origins: [OriginTally]
  var lanes: [KeyedJSON<LaneKey.JSONFields, Figures>]

  package init(_ report: FlakyReport) {
    (definition, runsInWindow, origins) = (FlakyReport.definition, report.runsInWindow, report.origins)
    lanes = report.entries.map { KeyedJSON($0.key.jsonFields, Figures($0)) }
  }
}

/// `duet flaky --tests --json`: every test with flaky evidence in the window,
/// flaky or recovered, as `duet flaky --json` has lanes, and its newest failure.
package struct TestFlakyJSON: Codable, Sendable, Equatable {
  /// What a test's entry says that a lane's cannot: its newest failure's first line.
  struct LastFailure: Codable, Sendable, Equatable {
    @Nullable var lastFailure: String?
  }

  var definition: String
  var runsInWindow: Int
  /// The window's runs by where they came from (`ci JOB`, `host NAME`).
  var origins: [OriginTally]
  var tests: [KeyedJSON<TestKey.JSONFields, KeyedJSON<FlakyJSON.Figures, LastFailure>>]

  package init(_ report: TestFlakyReport) {
    (definition, runsInWindow, origins) = (TestFlakyReport.definition, report.runsInWindow, report.origins)
    tests = report.entries.map { KeyedJSON($0.key.jsonFields, KeyedJSON(FlakyJSON.Figures($0), LastFailure(lastFailure: $0.lastFailure))) }
  }
}
