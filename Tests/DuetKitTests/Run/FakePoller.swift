import Foundation
import Testing
@testable import DuetRun
@testable import DuetTestReports
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A clock the test moves: the fake poller advances it to the next thing that happens.
final class FakeClock: RunClock {
  var now: UInt64 = 1_000_000_000
  var wallSeconds: Double { 1_700_000_000 + Double(now) / 1e9 }
}

/// A `ChildPoller` with scripted children and no processes, on one thread, as
/// ninja's `FakeCommandRunner`: each child is known by its command (a test's
/// lanes run `sh: <lane name>`), prints what its script says and exits after
/// its scripted seconds of fake time; a wait with nothing due moves the clock
/// to the earliest deadline instead of sleeping. It records what started, when,
/// and which signals each child got.
final class FakePoller: ChildPoller {
  /// What one scripted child does.
  struct Behaviour {
    var output = ""
    var seconds: Double
    var exitCode: Int32 = 0
    /// Never exits by itself (a hung lane); a signal it obeys ends it.
    var hangs = false
    var ignoresTERM = false
    /// A grandchild holds the pipe after the exit, until the loop drops it.
    var holdsPipe = false
  }

  private struct Child {
    var name: String
    var behaviour: Behaviour
    var startedAt: UInt64
    var endsAt: UInt64?
    var status: Int32
    var exited = false
    var closed = false
    var dropped = false
  }

  let clock = FakeClock()
  /// Outcomes per attempt for a lane; missing attempts pass. `.timeout`: the lane hangs.
  let script: [String: [AttemptOutcome]]
  let delays: [String: Double]
  let defaultDelay: Double
  /// When set, decides each child's behaviour from its name and attempt (1-based).
  var behave: ((String, Int) -> Behaviour)?
  /// Commands that cannot start.
  var spawnFailures: Set<String> = []
  private(set) var startOrder: [String] = []
  private(set) var maxConcurrent = 0
  private(set) var intervals: [String: (start: UInt64, end: UInt64)] = [:]
  private(set) var signals: [(name: String, signal: Int32)] = []
  /// Called at each wait, before anything is reported: a test's hand on the run (Ctrl-C at a moment).
  var onWait: ((FakePoller, Int) -> Void)?
  private(set) var waits = 0
  private var children: [ChildID: Child] = [:]
  private var attemptsByName: [String: Int] = [:]
  private var nextID: UInt64 = 1
  private var stopPending = false
  private let woken = Locked(false)
  /// What other threads posted, not yet taken by the loop.
  private let posted = Locked<[any Sendable]>([])
  /// Signalled at each wake, for a wait on a worker's post.
  private let wakes = DispatchSemaphore(value: 0)
  let waker: Waker

  init(script: [String: [AttemptOutcome]] = [:], delays: [String: Double] = [:], defaultDelay: Double = 0.01) {
    self.script = script
    self.delays = delays
    self.defaultDelay = defaultDelay
    let woken = self.woken, wakes = self.wakes, posted = self.posted
    waker = Waker { message in
      posted.withLock { $0.append(message) }
      woken.withLock { $0 = true }
      wakes.signal()
    }
  }

  func takePosted() -> [any Sendable] {
    posted.withLock { posted in
      defer { posted.removeAll() }
      return posted
    }
  }

  /// The stop latch as a signal would trip it; reported at the next wait.
  func tripStop() { stopPending = true }

  func spawn(_ spec: SpawnSpec) throws(ChildProcess.SpawnError) -> ChildID {
    let name = spec.arguments.last ?? spec.path
    if spawnFailures.contains(name) { throw .failed("cannot start \(spec.path) in \(spec.directory)", ENOENT) }
    attemptsByName[name, default: 0] += 1
    let behaviour = behave?(name, attemptsByName[name]!) ?? scripted(name, attempt: attemptsByName[name]!)
    let id = ChildID(nextID)
    nextID += 1
    let now = clock.now
    children[id] = Child(name: name, behaviour: behaviour, startedAt: now,
                         endsAt: behaviour.hangs ? nil : now + UInt64(behaviour.seconds * 1e9), status: behaviour.exitCode << 8)
    startOrder.append(name)
    maxConcurrent = max(maxConcurrent, children.values.filter { !$0.exited }.count)
    return id
  }

  private func scripted(_ name: String, attempt: Int) -> Behaviour {
    let outcomes = script[name] ?? []
    let outcome = attempt <= outcomes.count ? outcomes[attempt - 1] : .pass
    let seconds = delays[name] ?? defaultDelay
    switch outcome {
    case .timeout: return Behaviour(seconds: seconds, hangs: true)
    case .pass: return Behaviour(seconds: seconds)
    default: return Behaviour(seconds: seconds, exitCode: 1)
    }
  }

  func signalGroup(_ id: ChildID, _ signal: Int32) {
    guard let child = children[id], !child.exited else { return }
    signals.append((child.name, signal))
    guard signal == SIGKILL || (signal == SIGTERM && !child.behaviour.ignoresTERM) else { return }
    children[id]?.endsAt = clock.now
    children[id]?.status = signal
  }

  func drop(_ id: ChildID) { children[id]?.dropped = true }

  func wait(timeout: UInt64?, _ report: (PollEvent) -> Void) {
    waits += 1
    precondition(waits < 1_000_000, "the run never ends")
    onWait?(self, waits)
    let wasWoken = woken.withLock { woken -> Bool in
      defer { woken = false }
      return woken
    }
    if wasWoken { return }
    if stopPending {
      stopPending = false
      return report(.stopRequested)
    }
    for (id, child) in children.sorted(by: { $0.key < $1.key }) where child.dropped && !child.closed {
      children[id]?.closed = true
      report(.closed(id))
      forgetIfDone(id)
    }
    let next = children.values.filter { !$0.exited }.compactMap(\.endsAt).min()
    let limit = timeout.map { clock.now + $0 }
    guard let next, limit.map({ next <= $0 }) ?? true else {
      guard let limit else {
        // Nothing scripted is due: the loop waits for a post from a worker
        // (an attempt's file work, a built-in), in real time, up to 5 s.
        if waitForWake(seconds: 5) { return }
        // A run that would hang for ever: said, and ended, so the test fails instead of hanging.
        Issue.record("the loop waits with no deadline for children that never end: \(children.values.map(\.name).sorted())")
        for id in children.keys where children[id]?.exited == false { children[id]?.endsAt = clock.now; children[id]?.status = SIGKILL }
        return
      }
      clock.now = limit
      return
    }
    clock.now = max(clock.now, next)
    for id in children.keys.sorted() where children[id]?.endsAt == next && children[id]?.exited == false { end(id, report) }
  }

  /// Whether a post woke the poller within `seconds` of real time.
  private func waitForWake(seconds: Double) -> Bool {
    let until = DispatchTime.now() + seconds
    while true {
      if woken.withLock({ woken -> Bool in
        defer { woken = false }
        return woken
      }) { return true }
      if wakes.wait(timeout: until) == .timedOut { return false }
    }
  }

  private func end(_ id: ChildID, _ report: (PollEvent) -> Void) {
    guard let child = children[id] else { return }
    if !child.behaviour.output.isEmpty {
      var text = child.behaviour.output
      text.withUTF8 { report(.output(id, UnsafeRawBufferPointer($0))) }
    }
    children[id]?.exited = true
    intervals[child.name] = (child.startedAt, clock.now)
    report(.exited(id, status: child.status))
    if !child.behaviour.holdsPipe {
      children[id]?.closed = true
      report(.closed(id))
    }
    forgetIfDone(id)
  }

  private func forgetIfDone(_ id: ChildID) {
    if let child = children[id], child.exited, child.closed { children[id] = nil }
  }

  func overlapped(_ a: String, _ b: String) -> Bool {
    guard let x = intervals[a], let y = intervals[b] else { return false }
    return x.start < y.end && y.start < x.end
  }
}

extension AttemptWorkers {
  /// The work done where the loop is, before its next turn: a scripted run
  /// stays deterministic (real threads would race the fake clock).
  static var here: AttemptWorkers { AttemptWorkers { $0() } }
}

/// Lanes from a compact `name: needs` list, for run loop tests; each runs `sh: <name>`.
func lanes(_ spec: [(String, [String])], retries: [String: Int] = [:], outputs: [String: [String]] = [:]) -> [Lane] {
  spec.map { name, needs in
    var lane = Lane(name: name, step: .shell(name), location: SourceLocation(file: "m", line: 1, column: 1))
    lane.needs = needs
    lane.retries = retries[name] ?? 0
    lane.outputs = outputs[name] ?? []
    return lane
  }
}

/// Runs `lanes` through a `LaneLoop` on `poller`; returns outcomes by lane name.
func schedule(_ lanes: [Lane], runner poller: FakePoller, jobs: Int = 2, failFast: Bool = false,
              selected: Set<Int>? = nil, weights: [Double]? = nil, preset: [Int: LaneVerdict] = [:],
              poolDepths: [String: Int] = [:], interruption: StopRequest? = nil, killGrace: Double = 5,
              reports: ReportReading? = nil, quarantine: QuarantineRule? = nil,
              outputs: ((Int, Lane) -> OutputCheck)? = nil, workers: AttemptWorkers = .here,
              timeouts: [String: Double] = [:], startWork: ((Int, Int) -> StartWork?)? = nil,
              builtins: BuiltinSet = BuiltinSet([]),
              events: ((RunEvent) -> Void)? = nil) -> (RunVerdict, [String: LaneVerdict]) {
  let manifest = Manifest(path: "m", lanes: lanes)
  let plan = LaneSchedule(.init(graph: manifest.graph, selected: selected, settled: preset, retries: lanes.map(\.retries),
                           pools: lanes.map(\.pool), poolDepths: poolDepths, weights: weights, jobs: jobs, failFast: failFast))
  let loop = LaneLoop(plan: plan, lanes: lanes, builtins: builtins, poller: poller, clock: poller.clock,
                      killGrace: killGrace, outputs: outputs, reports: reports, quarantine: quarantine, workers: workers)
  let interrupter = loop.interrupter
  interruption?.listen { interrupter.interrupt() }
  // The lanes' logs go to a folder of the test's own, never to a device.
  let logs = FileManager.default.temporaryDirectory.appendingPathComponent("duet-fake-logs-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: logs) }
  let result = loop.run(makeRequest: { index, attempt in
    StepRequest(index: index, lane: lanes[index], attempt: attempt, timeout: timeouts[lanes[index].name] ?? 60,
                workingDirectory: URL(fileURLWithPath: "/"), logFolder: logs, logFile: "\(index)-\(attempt).log", logPath: "x", environment: [:])
  }, startWork: startWork, onEvent: { events?($0) })
  return (result, Dictionary(uniqueKeysWithValues: result.lanes.map { ($0.name, $0) }))
}
