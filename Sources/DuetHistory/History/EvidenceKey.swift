/// What a ranking of the history window is over: a lane (`duet flaky`,
/// `duet stats`) or a test case of the lanes' reports (`--tests`). One fold of
/// the window (`FlakyEvidence`, `StatsRanking.Durations`) and one ranking
/// (`FlakyRanking`, `StatsRanking`) serve both; the key says whose figures they
/// are and how ties sort.
package protocol EvidenceKey: Sendable, Hashable, Comparable {
  /// The lane it ran in: a lane's own name, or a test's lane.
  var lane: String { get }
  /// What flaky means for such a key, as the reports print it.
  static var flakyDefinition: String { get }
  /// Where its failures in the window happened (`ci linux-1`, `host laptop`).
  func failureOrigins(in store: HistoryStore, last: Int, since: Double?) throws(HistoryError) -> [String]
}

/// A lane, by name.
package struct LaneKey: EvidenceKey {
  package var lane: String

  init(_ lane: String) { self.lane = lane }

  package static let flakyDefinition = "flaky = one lane and one input fingerprint with both a pass and a failure, or a failed attempt that passed on retry"

  package func failureOrigins(in store: HistoryStore, last: Int, since: Double?) throws(HistoryError) -> [String] {
    try store.failureOrigins(lane: lane, last: last, since: since)
  }

  package static func < (a: LaneKey, b: LaneKey) -> Bool { a.lane < b.lane }

  /// Its own fields at the head of its entry in a report's JSON.
  var jsonFields: JSONFields { JSONFields(lane: lane) }

  struct JSONFields: Codable, Sendable, Equatable {
    var lane: String
  }
}

/// A test case, by where it ran (`TestIdentity`), with what tells it from its
/// namesakes in the window. Ties sort by lane, suite and name, then report and position.
package struct TestKey: EvidenceKey {
  var identity: TestIdentity
  /// What tells it from a namesake of its lane (`testDebugUnitTest`, `#2`); "" when its name is its own.
  var qualifier = ""

  package var lane: String { identity.lane }
  /// `suite.name`, as a person names the test (and a quarantine entry matches it).
  var fullName: String { identity.fullName }
  /// The name with what tells it from its namesakes: `app.CartTest.adds [testDebugUnitTest]`.
  var label: String { identity.label(qualifier: qualifier) }

  package static let flakyDefinition = "flaky test = one test (lane, report, name, position) with both a pass and a failure for one input fingerprint, or a failure that passed on a later attempt of the run"

  package func failureOrigins(in store: HistoryStore, last: Int, since: Double?) throws(HistoryError) -> [String] {
    try store.failureOrigins(lane: lane, test: identity, last: last, since: since)
  }

  package static func < (a: TestKey, b: TestKey) -> Bool {
    let (x, y) = (a.identity, b.identity)
    return (x.lane, x.suite, x.name, x.report, x.ordinal) < (y.lane, y.suite, y.name, y.report, y.ordinal)
  }

  /// Its own fields at the head of its entry in a report's JSON.
  var jsonFields: JSONFields {
    JSONFields(lane: identity.lane, suite: identity.suite, name: identity.name, report: identity.report, position: identity.ordinal)
  }

  struct JSONFields: Codable, Sendable, Equatable {
    var lane: String
    var suite: String
    var name: String
    /// The report file it was read from, relative to the tree root: with
    /// `position`, what tells a test from its namesakes (issue 50).
    var report: String
    /// Its position among same-named cases of that report (0 for the first).
    var position: Int
  }
}
