@testable import DuetHistory

/// Entries of the shared rankings (`FlakyRanking`, `StatsRanking`) written as
/// the tests name them: a lane by its name, a test by lane, suite and name (the
/// first case of that name in a report "").
extension FlakyRanking.Entry where Key == LaneKey {
  init(lane: String, runs: Int, failures: Int, flakyFingerprints: Int, flips: Int, retriesPassed: Int, lastSeen: Double, recovered: Bool) {
    self.init(key: LaneKey(lane), runs: runs, failures: failures, flakyFingerprints: flakyFingerprints, flips: flips,
              retriesPassed: retriesPassed, lastSeen: lastSeen, recovered: recovered)
  }
}

extension FlakyRanking.Entry where Key == TestKey {
  init(lane: String, suite: String, name: String, runs: Int, failures: Int, flakyFingerprints: Int, flips: Int,
       retriesPassed: Int, lastSeen: Double, recovered: Bool, lastFailure: String?) {
    self.init(key: TestKey(identity: TestIdentity(lane: lane, report: "", suite: suite, name: name, ordinal: 0)), runs: runs,
              failures: failures, flakyFingerprints: flakyFingerprints, flips: flips, retriesPassed: retriesPassed,
              lastSeen: lastSeen, recovered: recovered, lastFailure: lastFailure)
  }
}

extension StatsRanking.Entry where Key == LaneKey {
  init(lane: String, runs: Int, attempts: Int, passRate: Double, excused: Int = 0, firstTryRate: Double, p50: Double, p95: Double,
       max: Double, runP50: Double, slower: Bool, slowdown: Double?) {
    self.init(key: LaneKey(lane), runs: runs, attempts: attempts, passRate: passRate, excused: excused, firstTryRate: firstTryRate,
              p50: p50, p95: p95, max: max, runP50: runP50, slower: slower, slowdown: slowdown)
  }
}
