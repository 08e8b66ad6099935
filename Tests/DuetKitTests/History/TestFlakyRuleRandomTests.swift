import Foundation
import Testing
@testable import DuetRun
@testable import DuetApp
@testable import DuetCache
@testable import DuetTestReports
@testable import DuetSupport
@testable import DuetHistory

/// Issue 50: the flaky rule on seeded random histories with Gradle variants
/// (the same class and name in two report folders) and parameterised
/// namesakes (one name, several cases in one report). A test whose outcome is
/// decided by its identity and the inputs alone is never ranked flaky, however
/// its namesakes end and however often its lane is retried; one whose outcome
/// is a coin is found.
@Suite("The flaky rule on seeded histories with variants and parameters")
struct TestFlakyRuleRandomTests {
  struct Generator {
    var seed: UInt64
    mutating func next(_ bound: Int) -> Int {
      seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
      return Int(seed % UInt64(bound))
    }
  }

  /// One case of the generated suite: where it is written, and whether a coin decides it.
  struct Case: Hashable {
    var report: String
    var name: String
    var ordinal: Int
    var coin: Bool
  }

  @Test(arguments: [UInt64(0x2545F4914F6CDD1D), 0x9E3779B97F4A7C15, 0xD1B54A32D192ED03, 0x94D049BB133111EB])
  func noDeterministicFailureIsRankedFlaky(seed: UInt64) throws {
    var random = Generator(seed: seed)
    let variants = ["app/build/test-results/testDebugUnitTest/TEST-app.CartTest.xml", "app/build/test-results/testReleaseUnitTest/TEST-app.CartTest.xml"]
    var cases: [Case] = []
    for report in variants {
      for name in ["adds", "removes", "totals"] {
        // Up to three parameterised cases under one name, each decided its own way.
        for ordinal in 0..<(1 + random.next(3)) { cases.append(Case(report: report, name: name, ordinal: ordinal, coin: false)) }
      }
    }
    // A few cases whose outcome is a coin: the evidence the rule must find.
    let coins = Set((0..<2).map { _ in random.next(cases.count) })
    for index in coins { cases[index].coin = true }
    // A deterministic case fails on some inputs and passes on others, the same way every time.
    func decided(_ test: Case, fingerprint: Int) -> Bool {
      return (test.report.count + test.name.count * 7 + test.ordinal * 13 + fingerprint * 5 + Int(seed % 11)) % 3 != 0
    }

    let folder = try TemporaryFolder()
    let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
    // Issue 55: the same runs as two machines (CI and a laptop) record them on
    // five commits; a third clone pulls them (twice) and merges one machine's store too.
    let machines = try [SharedHistoryTests.Machine(), SharedHistoryTests.Machine()]
    let base = 1_700_000_000.0
    for r in 0..<60 {
      let id = String(format: "%08x-%04d", random.next(1 << 30), r)
      let started = base + Double(r) * 60
      let fingerprint = random.next(4)
      let attempts = 1 + random.next(3)
      var steps: [StepRow] = []
      var tests: [TestCaseRow] = []
      for attempt in 1...attempts {
        // Reports in either order (Gradle runs its variants as it likes); namesakes in their own order.
        let order = random.next(2) == 0 ? variants : variants.reversed()
        var failed = false
        for report in order {
          for test in cases where test.report == report {
            let passed = test.coin ? random.next(2) == 0 : decided(test, fingerprint: fingerprint)
            failed = failed || !passed
            tests.append(TestCaseRow(runID: id, lane: "unit", attempt: attempt, suite: "app.CartTest", name: test.name,
                                     outcome: passed ? .pass : .fail, duration: 0.1, message: passed ? nil : "boom",
                                     report: report, ordinal: test.ordinal))
          }
        }
        steps.append(StepRow(runID: id, lane: "unit", attempt: attempt, started: started + Double(attempt), duration: 1,
                             attemptOutcome: failed ? .fail : .pass, laneOutcome: attempt == attempts ? (failed ? .fail : .pass) : nil,
                             exitCode: failed ? 1 : 0, fingerprint: "fp\(fingerprint)", logPath: nil))
      }
      let run = RunRow(id: id, logID: HistoryStoreTests.logID(id), started: started, ended: started + 10, command: "duet verify", root: "/t",
                       gitCommit: String(repeating: "\(r % 5)", count: 40), host: "h", outcome: .pass, jobs: 2, duetVersion: "test",
                       origin: r % 2 == 0 ? "ci linux-1" : "host laptop")
      try store.record(run, steps: steps, tests: tests)
      try machines[r % 2].store.record(run, steps: steps, tests: tests)
    }
    let report = try TestFlakyReport.compute(store: store, last: 500, since: nil, now: base + 3600)
    try expectPulledRunsCountOnce(from: machines, direct: store, seed: seed, now: base + 3600)
    let ranked = Set(report.entries.map { Case(report: $0.key.identity.report, name: $0.key.identity.name, ordinal: $0.key.identity.ordinal, coin: true) })
    let deterministic = Set(cases.filter { !$0.coin }.map { Case(report: $0.report, name: $0.name, ordinal: $0.ordinal, coin: true) })
    #expect(ranked.isDisjoint(with: deterministic), "seed \(seed): ranked a deterministic case flaky: \(ranked.intersection(deterministic))")
    // The coins are found: the rule is not quiet for want of evidence.
    #expect(!ranked.isEmpty && ranked.count == coins.count, "seed \(seed): \(ranked) of coins \(coins.map { cases[$0] })")
    // By name alone (the rule before issue 50) the variants and namesakes would have made deterministic cases flaky.
    let namesakes = Dictionary(grouping: cases.filter { !$0.coin }, by: \.name).values.filter { group in
      Set(group.map { decided($0, fingerprint: 0) }).count > 1 || Set(group.map { decided($0, fingerprint: 1) }).count > 1
    }
    #expect(!namesakes.isEmpty, "seed \(seed): the history holds namesakes that end differently")
  }

  /// The runs of both machines uploaded, pulled twice into a third clone,
  /// which merges one machine's store as well: each run counts once, and the
  /// report over the pulled runs is the report over the runs recorded in one store.
  func expectPulledRunsCountOnce(from machines: [SharedHistoryTests.Machine], direct: HistoryStore, seed: UInt64, now: Double) throws {
    let server = MemoryCacheServer()
    for machine in machines {
      let ids = Set(try machine.store.runIDs())
      #expect(machine.upload(ids, to: server) == [], "seed \(seed)")
    }
    let reader = try SharedHistoryTests.Machine()
    let commits = (0..<5).map { String(repeating: "\($0)", count: 40) }
    let first = reader.pull(commits, from: server), second = reader.pull(commits, from: server)
    #expect(first.merged == 60 && second.merged == 0 && second.found == 60, "seed \(seed): \(first) then \(second)")
    #expect(try reader.store.merge(from: machines[0].store.path).runs == 0)
    let tests = try TestFlakyReport.compute(store: direct, last: 500, since: nil, now: now)
    let pulled = try TestFlakyReport.compute(store: reader.store, last: 500, since: nil, now: now)
    #expect(pulled.runsInWindow == 60 && pulled.entries == tests.entries && pulled.origins == tests.origins, "seed \(seed): pulled runs counted otherwise")
    let lanes = try FlakyReport.compute(store: direct, last: 500, since: nil, now: now)
    let pulledLanes = try FlakyReport.compute(store: reader.store, last: 500, since: nil, now: now)
    #expect(pulledLanes.entries == lanes.entries && pulledLanes.origins.map(\.runs) == [30, 30], "seed \(seed)")
  }
}
