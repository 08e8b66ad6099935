import Foundation
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// A `StepRunner` with scripted outcomes and delays and no processes, recording
/// what ran when, so the scheduler can be tested as ninja tests its builder.
final class FakeStepRunner: StepRunner, @unchecked Sendable {
  private let lock = NSLock()
  /// Outcomes per attempt for a lane; missing attempts pass.
  let script: [String: [AttemptOutcome]]
  let delays: [String: Double]
  let defaultDelay: Double
  private(set) var startOrder: [String] = []
  private(set) var maxConcurrent = 0
  private(set) var intervals: [String: (start: Date, end: Date)] = [:]
  private var current = 0
  private var pending: [(@Sendable (AttemptResult) -> Void, Int)] = []

  init(script: [String: [AttemptOutcome]] = [:], delays: [String: Double] = [:], defaultDelay: Double = 0.01) {
    self.script = script
    self.delays = delays
    self.defaultDelay = defaultDelay
  }

  func start(_ request: StepRequest, completion: @escaping @Sendable (AttemptResult) -> Void) {
    let name = request.lane.name
    let started = Date()
    lock.lock()
    startOrder.append(name)
    current += 1
    maxConcurrent = max(maxConcurrent, current)
    lock.unlock()
    let outcomes = script[name] ?? []
    let outcome = request.attempt <= outcomes.count ? outcomes[request.attempt - 1] : .pass
    DispatchQueue.global().asyncAfter(deadline: .now() + (delays[name] ?? defaultDelay)) {
      self.lock.lock()
      self.current -= 1
      self.intervals[name] = (started, Date())
      self.lock.unlock()
      completion(AttemptResult(attempt: request.attempt, outcome: outcome, exitCode: outcome == .pass ? 0 : 1,
                               started: started.timeIntervalSince1970, duration: Date().timeIntervalSince(started),
                               logPath: nil, tail: LogTail()))
    }
  }

  func interruptAll() {}

  func overlapped(_ a: String, _ b: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard let x = intervals[a], let y = intervals[b] else { return false }
    return x.start < y.end && y.start < x.end
  }
}

/// Lanes from a compact `name: needs` list, for scheduler tests.
func lanes(_ spec: [(String, [String])], retries: [String: Int] = [:]) -> [Lane] {
  spec.map { name, needs in
    var lane = Lane(name: name, step: .shell("true"), location: SourceLocation(file: "m", line: 1, column: 1))
    lane.needs = needs
    lane.retries = retries[name] ?? 0
    return lane
  }
}

/// Runs `lanes` through a `Scheduler` with `runner`; returns outcomes by lane name.
func schedule(_ lanes: [Lane], runner: any StepRunner, jobs: Int = 2, failFast: Bool = false,
              selected: Set<Int>? = nil, weights: [Double]? = nil, preset: [Int: LaneRecord] = [:],
              poolDepths: [String: Int] = [:]) -> (RunResult, [String: LaneRecord]) {
  let manifest = Manifest(path: "m", lanes: lanes)
  let plan = RunPlan(.init(graph: manifest.graph, selected: selected, settled: preset, retries: lanes.map(\.retries),
                           pools: lanes.map(\.pool), poolDepths: poolDepths, weights: weights, jobs: jobs, failFast: failFast))
  let scheduler = Scheduler(plan: plan, names: lanes.map(\.name), runner: runner)
  let result = scheduler.run(makeRequest: { index, attempt in
    StepRequest(index: index, lane: lanes[index], attempt: attempt, timeout: 60,
                workingDirectory: URL(fileURLWithPath: "/"), logURL: URL(fileURLWithPath: "/dev/null"), logPath: "x", environment: [:])
  }, onEvent: { _ in })
  return (result, Dictionary(uniqueKeysWithValues: result.records.map { ($0.name, $0) }))
}
