import DuetSupport

/// Per test case of the lanes' reports, over the history window: the runs it
/// ran in (a skip is no run), its pass rate (runs whose last attempt passed it)
/// and p50, p95 (nearest rank) and max of its seconds per run, summed over the
/// run's attempts as a lane's are. Folded as `duet stats` folds lanes.
package struct TestStatsReport: Sendable {
  package struct Entry: Sendable, Equatable {
    var identity: TestIdentity
    /// What tells it from a namesake of its lane (`testDebugUnitTest`, `#2`); "" when its name is its own.
    var qualifier = ""
    package var runs: Int
    package var passRate: Double
    package var p50: Double
    package var p95: Double
    package var max: Double

    package var lane: String { identity.lane }
    var suite: String { identity.suite }
    var name: String { identity.name }
    /// `suite.name`, as a person names the test.
    var test: String { identity.fullName }
    /// The name with what tells it from its namesakes.
    package var label: String { identity.label(qualifier: qualifier) }
  }

  package var entries: [Entry]
  package var runsInWindow: Int

  /// The report over the store's last `last` runs, only lane `lane`'s tests when one is named.
  package static func compute(store: HistoryStore, last: Int, lane: String? = nil) throws(HistoryError) -> TestStatsReport {
    let (fold, runs) = try TestFold.scan(store, last: last, since: nil, lane: lane)
    let names = fold.identities.indices.map(String.init)
    let lanes = fold.durations.report(lanes: names, runsInWindow: runs)
    let qualifiers = TestIdentity.qualifiers(fold.identities)
    let entries = lanes.entries.map { entry -> Entry in
      let identity = fold.identities[Int(entry.lane)!]
      return Entry(identity: identity, qualifier: qualifiers[identity] ?? "", runs: entry.runs, passRate: entry.passRate,
                   p50: entry.p50, p95: entry.p95, max: entry.max)
    }.sorted { a, b in
      (a.lane, a.suite, a.name, a.identity.report, a.identity.ordinal) < (b.lane, b.suite, b.name, b.identity.report, b.identity.ordinal)
    }
    return TestStatsReport(entries: entries, runsInWindow: runs)
  }
}

/// `duet stats --tests --json`: per test, runs, pass rate and durations in the window.
package struct TestStatsJSON: Codable, Sendable, Equatable {
  package struct Test: Codable, Sendable, Equatable {
    var lane: String
    var suite: String
    var name: String
    /// The report file it was read from, relative to the tree root.
    var report: String
    /// Its position among same-named cases of that report (0 for the first).
    var position: Int
    var runs: Int
    /// 0 to 1.
    var passRate: Double
    var p50Seconds: Double
    var p95Seconds: Double
    var maxSeconds: Double
  }

  var runsInWindow: Int
  var tests: [Test]

  package init(_ report: TestStatsReport) {
    runsInWindow = report.runsInWindow
    tests = report.entries.map { entry in
      Test(lane: entry.lane, suite: entry.suite, name: entry.name, report: entry.identity.report, position: entry.identity.ordinal, runs: entry.runs, passRate: entry.passRate,
           p50Seconds: entry.p50, p95Seconds: entry.p95, maxSeconds: entry.max)
    }
  }
}
