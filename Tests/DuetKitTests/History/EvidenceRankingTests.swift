import Testing
@testable import DuetSupport
@testable import DuetHistory

/// Issue 54, item 5: one ranking over an evidence key serves lanes and tests.
/// The same lane runs give the same figures whether their index names a lane
/// or a test; ties fall to the key's own order.
struct EvidenceRankingTests {
  /// One run of index `key`: its attempts' kinds and seconds, in order.
  static func run(_ key: Int, at started: Double, fingerprint: Int?, _ attempts: [(AttemptKind, Double)]) -> LaneTally {
    var run = LaneTally(lane: key, started: started, fingerprint: fingerprint, failed: 0, anyPassed: false, finalPassed: false, seconds: 0, lanePassed: false)
    for (kind, seconds) in attempts { run.add(kind, seconds: seconds, lanePassed: kind == .pass) }
    return run
  }

  /// Key 0 flips on one fingerprint; key 1 passes on a retry; key 2 only passes;
  /// key 3 has as much evidence as key 1, as many failures and the same last
  /// sighting, so the key's order decides between them.
  static let runs = [
    run(0, at: 100, fingerprint: 7, [(.pass, 1)]), run(1, at: 100, fingerprint: 8, [(.failure, 2), (.pass, 3)]),
    run(2, at: 100, fingerprint: 9, [(.pass, 4)]), run(3, at: 100, fingerprint: 6, [(.failure, 5), (.pass, 6)]),
    run(0, at: 200, fingerprint: 7, [(.failure, 1)]),
  ]

  static func figures<Key>(_ ranking: FlakyRanking<Key>) -> [String] {
    ranking.entries.map { "\($0.runs) \($0.failures) \($0.flakyFingerprints) \($0.flips) \($0.retriesPassed) \($0.lastSeen) \($0.recovered)" }
  }

  static func test(_ name: String, ordinal: Int = 0) -> TestKey {
    TestKey(identity: TestIdentity(lane: "unit", report: "r.xml", suite: "S", name: name, ordinal: ordinal))
  }

  @Test func lanesAndTestsAreRankedByOneRule() {
    var evidence = FlakyEvidence()
    Self.runs.forEach { evidence.add($0) }
    let lanes = evidence.ranking(keys: ["a", "b", "c", "d"].map(LaneKey.init), runsInWindow: 2, now: 300)
    let tests = evidence.ranking(keys: [Self.test("a"), Self.test("b"), Self.test("c"), Self.test("d")], runsInWindow: 2, now: 300)
    #expect(lanes.entries.map(\.lane) == ["a", "b", "d"])
    #expect(tests.entries.map(\.key.fullName) == ["S.a", "S.b", "S.d"])
    #expect(Self.figures(lanes) == ["2 1 1 1 0 200.0 false", "1 1 1 0 1 100.0 false", "1 1 1 0 1 100.0 false"])
    #expect(Self.figures(tests) == Self.figures(lanes))
    #expect(lanes.keysSeen == 4 && tests.keysSeen == 4)
  }

  /// The key's order breaks ties: a lane by name, a test by lane, suite, name,
  /// report and then its position as a number (the tenth case after the second).
  @Test func tiesFallToTheKeysOrder() {
    var evidence = FlakyEvidence()
    Self.runs.forEach { evidence.add($0) }
    let lanes = evidence.ranking(keys: ["a", "z", "c", "b"].map(LaneKey.init), runsInWindow: 2, now: 300)
    #expect(lanes.entries.map(\.lane) == ["a", "b", "z"])
    let tests = evidence.ranking(keys: [Self.test("a"), Self.test("t", ordinal: 9), Self.test("c"), Self.test("t", ordinal: 1)], runsInWindow: 2, now: 300)
    #expect(tests.entries.map(\.key.identity.ordinal) == [0, 1, 9])
    #expect(Self.test("t", ordinal: 1) < Self.test("t", ordinal: 10) && !(Self.test("u") < Self.test("t", ordinal: 10)))
  }

  /// Evidence older than 7 days has recovered, for a lane as for a test, and ranks after the flaky.
  @Test func recoveredComesLast() {
    var evidence = FlakyEvidence()
    Self.runs.forEach { evidence.add($0) }
    let now = 100 + FlakyEvidence.recoveryAge + 1
    let tests = evidence.ranking(keys: [Self.test("a"), Self.test("b"), Self.test("c"), Self.test("d")], runsInWindow: 2, now: now)
    #expect(tests.flaky.map(\.key.fullName) == ["S.a"] && tests.recovered.map(\.key.fullName) == ["S.b", "S.d"])
    #expect(tests.recovered[0].why == "both outcomes on one fingerprint, passed on a retry once, 1 failure(s) in 1 run(s), none in the last 7 days")
  }

  @Test func statsAreOneFoldForLanesAndTests() {
    var durations = StatsDurations()
    Self.runs.forEach { durations.add($0) }
    let lanes = durations.ranking(keys: ["d", "c", "b", "a"].map(LaneKey.init), runsInWindow: 2)
    let tests = durations.ranking(keys: [Self.test("d"), Self.test("c"), Self.test("b"), Self.test("a")], runsInWindow: 2)
    #expect(lanes.entries.map(\.lane) == ["a", "b", "c", "d"])
    #expect(tests.entries.map(\.key.fullName) == ["S.a", "S.b", "S.c", "S.d"])
    let figures = { (entry: StatsRanking<LaneKey>.Entry) in "\(entry.runs) \(entry.attempts) \(entry.passRate) \(entry.firstTryRate) \(entry.p50) \(entry.max)" }
    #expect(lanes.entries.map(figures) == ["1 2 1.0 0.0 5.0 6.0", "1 1 1.0 1.0 4.0 4.0", "1 2 1.0 0.0 2.0 3.0", "2 2 0.5 0.5 1.0 1.0"])
    #expect(tests.entries.map { "\($0.runs) \($0.attempts) \($0.passRate) \($0.firstTryRate) \($0.p50) \($0.max)" } == lanes.entries.map(figures))
  }
}
