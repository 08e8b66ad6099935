import Foundation
import DuetModel
import DuetSupport

/// The real `StepRunner`: shell lanes as `ChildRun` children, built-ins in-process.
///
/// A timeout stops the lane's process group (SIGTERM, then SIGKILL after a grace
/// period); `interruptAll` does the same to every running lane.
public final class LaneRunner: StepRunner {
  /// Seconds between SIGTERM and SIGKILL.
  public let killGrace: Double
  /// The built-ins a `run:` lane may name, handed in by the app.
  public let builtins: BuiltinSet
  /// Seconds to wait for the output pipe to close after the lane's shell exited.
  package static let drainGrace = 2.0

  private let queue = DispatchQueue(label: "duet.lanes")
  private let active = Locked<[ObjectIdentifier: Attempt]>([:])

  public init(builtins: BuiltinSet, killGrace: Double = 5) {
    self.builtins = builtins
    self.killGrace = killGrace
  }

  public func start(_ request: StepRequest, completion: @escaping @Sendable (AttemptResult) -> Void) {
    let attempt = Attempt(request: request, completion: completion)
    active.withLock { $0[ObjectIdentifier(attempt)] = attempt }
    switch request.lane.step {
    case .shell(let command): startShell(attempt, command: command)
    case .builtin(let command, let arguments): startBuiltin(attempt, command: command, arguments: arguments)
    }
  }

  public func interruptAll() {
    for attempt in active.withLock({ Array($0.values) }) {
      attempt.state.withLock { $0.interrupted = true }
      if let child = attempt.state.withLock({ $0.child }) {
        child.stop()
      } else {
        complete(attempt, exit: nil)
      }
    }
  }

  // MARK: - Shell lanes

  private func startShell(_ attempt: Attempt, command: String) {
    let request = attempt.request
    let sink = attempt.sink
    let child = ChildRun.shell(command, directory: request.workingDirectory.path, environment: request.environment,
                               limits: .init(timeout: request.timeout, killGrace: killGrace, drainGrace: LaneRunner.drainGrace),
                               onBytes: { sink.write($0) },
                               completion: { [self] end in
                                 if end.timedOut {
                                   sink.write("duet: timed out after \(DurationText.formatTimeout(request.timeout)); stopping the lane\n")
                                 }
                                 if let problem = end.spawnError {
                                   sink.write("duet: \(problem)\n")
                                   attempt.state.withLock { $0.note = problem }
                                 }
                                 attempt.state.withLock {
                                   $0.timedOut = end.timedOut
                                   // Stopped from outside (a signal to duet): interrupted, not failed.
                                   $0.interrupted = $0.interrupted || end.stopped
                                 }
                                 self.complete(attempt, exit: end.waitStatus.map { .status($0) } ?? .code(127))
                               })
    attempt.state.withLock { $0.child = child }
    // Ctrl-C may have arrived between the spawn and now.
    if attempt.state.withLock({ $0.interrupted }) { child.stop() }
  }

  // MARK: - Built-in lanes

  private func startBuiltin(_ attempt: Attempt, command: String, arguments: [String]) {
    guard let builtin = builtins.lane(named: command) else {
      attempt.sink.write("duet: unknown built-in '\(command)'\n")
      complete(attempt, exit: .code(2))
      return
    }
    // A built-in runs on a thread duet cannot stop; at its deadline the lane
    // ends as timed out and whatever the built-in returns later is dropped.
    queue.asyncAfter(deadline: ChildRun.deadline(after: attempt.request.timeout)) { [self] in
      guard !attempt.state.withLock({ $0.completed }) else { return }
      attempt.sink.write("duet: timed out after \(DurationText.formatTimeout(attempt.request.timeout)); the built-in's result will be ignored\n")
      attempt.state.withLock { $0.timedOut = true }
      complete(attempt, exit: nil)
    }
    let context = BuiltinContext(tree: attempt.request.workingDirectory, arguments: arguments, vocabulary: builtins.vocabulary)
    DispatchQueue.global().async { [self] in
      let result = builtin.run(context)
      guard !attempt.state.withLock({ $0.completed }) else { return }
      attempt.sink.write(result.output.hasSuffix("\n") || result.output.isEmpty ? result.output : result.output + "\n")
      complete(attempt, exit: .code(result.exitCode))
    }
  }

  // MARK: - Completion

  private enum Exit {
    case status(Int32)
    case code(Int32)
  }

  private func complete(_ attempt: Attempt, exit: Exit?) {
    let state = attempt.state.withLock { state -> Attempt.State? in
      guard !state.completed else { return nil }
      state.completed = true
      return state
    }
    guard let state else { return }
    attempt.sink.close()
    active.withLock { $0[ObjectIdentifier(attempt)] = nil }

    var code: Int32?
    var signal: Int32?
    switch exit {
    case .status(let status)?:
      code = exitCode(ofWaitStatus: status)
      signal = terminatingSignal(ofWaitStatus: status)
    case .code(let value)?:
      code = value
    case nil:
      break
    }
    let outcome: AttemptOutcome
    if state.interrupted { outcome = .interrupted }
    else if state.timedOut { outcome = .timeout }
    else { outcome = code == 0 ? .pass : .fail }
    let result = AttemptResult(
      attempt: attempt.request.attempt,
      outcome: outcome,
      exitCode: code,
      signal: signal,
      started: attempt.started.timeIntervalSince1970,
      duration: Date().timeIntervalSince(attempt.started),
      logPath: attempt.sink.wroteFile ? attempt.request.logPath : nil,
      tail: attempt.sink.tail,
      note: state.note
    )
    attempt.completion(result)
  }

  /// One running attempt; its changing parts sit behind one lock.
  private final class Attempt: Sendable {
    struct State: Sendable {
      package var child: ChildRun?
      package var timedOut = false
      package var interrupted = false
      package var completed = false
      package var note: String?
    }

    let request: StepRequest
    let completion: @Sendable (AttemptResult) -> Void
    let sink: LogSink
    let started = Date()
    let state = Locked(State())

    init(request: StepRequest, completion: @escaping @Sendable (AttemptResult) -> Void) {
      self.request = request
      self.completion = completion
      self.sink = LogSink(url: request.logURL, onLine: request.onLine)
    }
  }
}
