import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

/// Many random DAGs with random outcomes, retries, pools and cache states, each
/// run through `LaneSchedule` in a random completion order and checked against a plain
/// sequential reference of which lanes start, which are skipped, and the verdict.
@Suite("Run plan against a sequential reference")
struct LaneScheduleRandomTests {
  /// A deterministic generator, so a failing case can be replayed from its seed.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  struct Case {
    var graph: LaneGraph
    var settled: [Int: LaneVerdict]
    var script: [[AttemptOutcome]]
    var retries: [Int]
    var pools: [String?]
    var poolDepths: [String: Int]
    var jobs: Int
  }

  static func makeCase(_ random: inout SplitMix) -> Case {
    let count = Int.random(in: 1...14, using: &random)
    var needs: [[String]] = []
    for i in 0..<count {
      needs.append((0..<i).filter { _ in Int.random(in: 0..<4, using: &random) == 0 }.map { "l\($0)" })
    }
    let graph = LaneGraph(names: (0..<count).map { "l\($0)" }, needs: needs)
    var settled: [Int: LaneVerdict] = [:]
    var script: [[AttemptOutcome]] = []
    var retries: [Int] = []
    var pools: [String?] = []
    for i in 0..<count {
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1, 2: settled[i] = LaneVerdict(index: i, name: "l\(i)", outcome: .cached)
      case 3: settled[i] = LaneVerdict(index: i, name: "l\(i)", outcome: .skipped, reason: "needs x, not found", missingPrograms: ["x"])
      default: break
      }
      retries.append(Int.random(in: 0...2, using: &random))
      script.append((0..<3).map { _ in [AttemptOutcome.pass, .pass, .fail, .timeout].randomElement(using: &random)! })
      pools.append([nil, nil, "p", "q"].randomElement(using: &random)!)
    }
    return Case(graph: graph, settled: settled, script: script, retries: retries, pools: pools,
                poolDepths: ["p": 1, "q": 2], jobs: Int.random(in: 1...4, using: &random))
  }

  /// The reference: lanes in topological order, one at a time.
  static func reference(_ test: Case) -> (outcomes: [LaneOutcome], starts: [Int]) {
    var outcomes = [LaneOutcome?](repeating: nil, count: test.graph.count)
    var starts = [Int](repeating: 0, count: test.graph.count)
    for i in test.graph.topologicalOrder() {
      if let record = test.settled[i] {
        outcomes[i] = record.outcome
      } else if test.graph.needs[i].contains(where: { !(outcomes[$0]!.letsDependentsRun) }) {
        outcomes[i] = .skipped
      } else {
        var result = LaneOutcome.fail
        for attempt in 0...test.retries[i] {
          starts[i] += 1
          let outcome = test.script[i][attempt]
          if outcome == .pass { result = attempt == 0 ? .pass : .flaky; break }
          result = outcome == .timeout ? .timeout : .fail
        }
        outcomes[i] = result
      }
    }
    return (outcomes.map { $0! }, starts)
  }

  /// Steps the plan, finishing a random running lane each time; checks the bounds as it goes.
  static func simulate(_ test: Case, random: inout SplitMix) -> (outcomes: [LaneOutcome], starts: [Int], problems: [String]) {
    var plan = LaneSchedule(.init(graph: test.graph, settled: test.settled, retries: test.retries, pools: test.pools,
                             poolDepths: test.poolDepths, jobs: test.jobs))
    var starts = [Int](repeating: 0, count: test.graph.count)
    var running: [Int: Int] = [:]
    var problems: [String] = []
    func begin(_ start: LaneSchedule.Start) {
      starts[start.index] += 1
      if test.settled[start.index] != nil { problems.append("settled lane l\(start.index) started") }
      for need in test.graph.needs[start.index] where !(plan.record(of: need)?.outcome.letsDependentsRun ?? false) {
        problems.append("l\(start.index) started before its need l\(need) passed")
      }
      running[start.index] = start.attempt
    }
    var guardSteps = 0
    while true {
      for start in plan.nextStarts() { begin(start) }
      if running.count > test.jobs { problems.append("\(running.count) running with --jobs \(test.jobs)") }
      for (pool, depth) in test.poolDepths where running.keys.filter({ test.pools[$0] == pool }).count > depth {
        problems.append("pool \(pool) over its depth")
      }
      guard let index = running.keys.sorted().randomElement(using: &random) else { break }
      let attempt = running.removeValue(forKey: index)!
      let outcome = test.script[index][attempt - 1]
      let result = LaneAttempt(attempt: attempt, outcome: outcome, exitCode: nil, started: 0, duration: 1, logPath: nil, tail: LogTail())
      if case .retry(let next) = plan.attemptEnded(index, result) { begin(next) }
      guardSteps += 1
      if guardSteps > 1000 { problems.append("did not finish"); break }
    }
    if !plan.isFinished { problems.append("not finished with nothing running") }
    let outcomes = (0..<test.graph.count).map { plan.record(of: $0)?.outcome ?? .interrupted }
    return (outcomes, starts, problems)
  }

  /// 2,000 random runs agree with the reference on every outcome, every start count and the verdict;
  /// no settled lane starts, no lane starts before its needs, `--jobs` and pools hold.
  @Test func agreesWithSequentialReference() {
    var random = SplitMix(state: 20261203)
    for caseNumber in 0..<2000 {
      let test = LaneScheduleRandomTests.makeCase(&random)
      let expected = LaneScheduleRandomTests.reference(test)
      let actual = LaneScheduleRandomTests.simulate(test, random: &random)
      #expect(actual.problems.isEmpty, "case \(caseNumber): \(actual.problems)")
      #expect(actual.outcomes == expected.outcomes, "case \(caseNumber)")
      #expect(actual.starts == expected.starts, "case \(caseNumber)")
      let verdict = RunVerdict(lanes: actual.outcomes.enumerated().map { LaneVerdict(index: $0.offset, name: "l\($0.offset)", outcome: $0.element) },
                                 interrupted: false, duration: 0).outcome
      #expect(verdict == (expected.outcomes.contains { $0.failsRun } ? .fail : .pass), "case \(caseNumber)")
      if !actual.problems.isEmpty || actual.outcomes != expected.outcomes { break }
    }
  }

  /// With `--fail-fast` each lane ends as the reference says or `cancelled`, nothing starts after
  /// the first failure has settled, and the run fails exactly when the reference does.
  @Test func failFastIsAPrefixOfTheReference() {
    var random = SplitMix(state: 7)
    for caseNumber in 0..<1000 {
      let test = LaneScheduleRandomTests.makeCase(&random)
      let expected = LaneScheduleRandomTests.reference(test)
      var plan = LaneSchedule(.init(graph: test.graph, settled: test.settled, retries: test.retries, pools: test.pools,
                               poolDepths: test.poolDepths, jobs: test.jobs, failFast: true))
      var running: [Int: Int] = [:]
      var failedSettled = test.settled.values.contains { $0.outcome.failsRun }
      var startedAfterFailure = false
      while true {
        for start in plan.nextStarts() {
          if failedSettled { startedAfterFailure = true }
          running[start.index] = start.attempt
        }
        guard let index = running.keys.sorted().randomElement(using: &random) else { break }
        let attempt = running.removeValue(forKey: index)!
        let result = LaneAttempt(attempt: attempt, outcome: test.script[index][attempt - 1], exitCode: nil, started: 0, duration: 1, logPath: nil, tail: LogTail())
        if case .retry(let next) = plan.attemptEnded(index, result) { running[index] = next.attempt }
        if plan.record(of: index)?.outcome.failsRun == true { failedSettled = true }
      }
      #expect(plan.isFinished, "case \(caseNumber)")
      #expect(!startedAfterFailure, "case \(caseNumber)")
      for i in 0..<test.graph.count {
        let outcome = plan.record(of: i)?.outcome
        #expect(outcome == expected.outcomes[i] || outcome == .cancelled, "case \(caseNumber) lane \(i): \(String(describing: outcome)) against \(expected.outcomes[i])")
      }
      let fails = (0..<test.graph.count).contains { plan.record(of: $0)?.outcome.failsRun == true }
      #expect(fails == expected.outcomes.contains { $0.failsRun }, "case \(caseNumber)")
    }
  }
}

/// The same random shapes through the Dispatch scheduler and a fake runner that
/// counts what it is asked to start: a lane settled before the run is never
/// handed to the runner, and every other lane is started as often as the reference says.
@Suite("Scheduler spawns against a sequential reference")
struct SchedulerSpawnTests {
  @Test func settledLanesNeverReachTheRunner() {
    var random = LaneScheduleRandomTests.SplitMix(state: 42)
    for caseNumber in 0..<150 {
      let test = LaneScheduleRandomTests.makeCase(&random)
      let expected = LaneScheduleRandomTests.reference(test)
      var script: [String: [AttemptOutcome]] = [:]
      for i in 0..<test.graph.count { script["l\(i)"] = test.script[i] }
      let runner = FakePoller(script: script, defaultDelay: 0)
      var laneList = lanes((0..<test.graph.count).map { i in ("l\(i)", test.graph.needs[i].map { "l\($0)" }) })
      for i in laneList.indices {
        laneList[i].retries = test.retries[i]
        laneList[i].pool = test.pools[i]
      }
      let (_, by) = schedule(laneList, runner: runner, jobs: test.jobs, preset: test.settled, poolDepths: test.poolDepths)
      for i in 0..<test.graph.count {
        let spawned = runner.startOrder.filter { $0 == "l\(i)" }.count
        #expect(spawned == expected.starts[i], "case \(caseNumber) lane l\(i)")
        #expect(by["l\(i)"]?.outcome == expected.outcomes[i], "case \(caseNumber) lane l\(i)")
      }
    }
  }
}
