import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `StepRunner`: shell lanes as child processes, built-ins in-process.
///
/// A timeout sends SIGTERM to the lane's process group and SIGKILL after a
/// grace period; `interruptAll` does the same to every running lane.
public final class LaneRunner: StepRunner, @unchecked Sendable {
  /// Seconds between SIGTERM and SIGKILL.
  public let killGrace: Double
  /// Seconds to wait for the output pipe to close after the lane's shell exited.
  static let drainGrace = 2.0

  private let queue = DispatchQueue(label: "duet.lanes")
  private var active: [ObjectIdentifier: Attempt] = [:]

  public init(killGrace: Double = 5) {
    self.killGrace = killGrace
  }

  public func start(_ request: StepRequest, completion: @escaping @Sendable (AttemptResult) -> Void) {
    queue.async {
      let attempt = Attempt(request: request, completion: completion)
      self.active[ObjectIdentifier(attempt)] = attempt
      switch request.lane.step {
      case .shell(let command): self.startShell(attempt, command: command)
      case .builtin(let command, let arguments): self.startBuiltin(attempt, command: command, arguments: arguments)
      }
      if attempt.completed { return }
      let timer = DispatchSource.makeTimerSource(queue: self.queue)
      timer.schedule(deadline: .now() + request.timeout)
      timer.setEventHandler { [self] in self.timedOut(attempt) }
      timer.resume()
      attempt.timers.append(timer)
    }
  }

  public func interruptAll() {
    queue.async {
      for attempt in self.active.values {
        attempt.interrupted = true
        if attempt.pid == nil {
          self.complete(attempt)
        } else {
          self.terminate(attempt)
        }
      }
    }
  }

  // MARK: - Shell lanes

  private func startShell(_ attempt: Attempt, command: String) {
    let request = attempt.request
    do {
      let child = try ChildProcess.spawnShell(command, directory: request.workingDirectory.path, environment: request.environment)
      attempt.pid = child.pid
      attempt.outputFD = child.output
      OutputPump.shared.add(child.output, OutputPump.Reader(
        onBytes: { bytes in attempt.sink.write(bytes) },
        onClose: { [self] in
          self.queue.async {
            attempt.outputClosed = true
            self.completeIfDone(attempt)
          }
        }))
      ChildReaper.shared.watch(child.pid) { [self] status in
        self.queue.async {
          attempt.waitStatus = status
          self.completeIfDone(attempt)
          if !attempt.completed {
            // A grandchild outside the group may hold the pipe; stop waiting for it.
            self.queue.asyncAfter(deadline: .now() + LaneRunner.drainGrace) {
              if !attempt.outputClosed { OutputPump.shared.drop(child.output) }
            }
          }
        }
      }
    } catch {
      attempt.note = error.description
      attempt.sink.write("duet: \(error.description)\n")
      attempt.outputClosed = true
      attempt.waitStatus = 127 << 8
      complete(attempt)
    }
  }

  private func timedOut(_ attempt: Attempt) {
    guard !attempt.completed else { return }
    attempt.timedOut = true
    attempt.sink.write("duet: timed out after \(DurationText.formatTimeout(attempt.request.timeout)); stopping the lane\n")
    if attempt.pid == nil {
      complete(attempt)
    } else {
      terminate(attempt)
    }
  }

  /// SIGTERM to the group now, SIGKILL after the grace period if it is still there.
  private func terminate(_ attempt: Attempt) {
    guard let pid = attempt.pid, !attempt.completed else { return }
    signalGroup(pid, SIGTERM)
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + killGrace)
    timer.setEventHandler { if !attempt.completed { signalGroup(pid, SIGKILL) } }
    timer.resume()
    attempt.timers.append(timer)
  }

  private func completeIfDone(_ attempt: Attempt) {
    if attempt.waitStatus != nil && attempt.outputClosed { complete(attempt) }
  }

  // MARK: - Built-in lanes

  private func startBuiltin(_ attempt: Attempt, command: String, arguments: [String]) {
    guard let builtin = BuiltinRegistry.lane(named: command) else {
      attempt.sink.write("duet: unknown built-in '\(command)'\n")
      attempt.builtinExit = 2
      complete(attempt)
      return
    }
    let context = BuiltinContext(tree: attempt.request.workingDirectory, arguments: arguments)
    DispatchQueue.global().async { [self] in
      let result = builtin.run(context)
      self.queue.async {
        guard !attempt.completed else { return }
        attempt.sink.write(result.output.hasSuffix("\n") || result.output.isEmpty ? result.output : result.output + "\n")
        attempt.builtinExit = result.exitCode
        self.complete(attempt)
      }
    }
  }

  // MARK: - Completion

  private func complete(_ attempt: Attempt) {
    guard !attempt.completed else { return }
    attempt.completed = true
    attempt.timers.forEach { $0.cancel() }
    attempt.sink.close()
    active[ObjectIdentifier(attempt)] = nil

    var code: Int32? = attempt.builtinExit
    var signal: Int32?
    if let status = attempt.waitStatus {
      code = exitCode(ofWaitStatus: status)
      signal = terminatingSignal(ofWaitStatus: status)
    }
    let outcome: AttemptOutcome
    if attempt.interrupted { outcome = .interrupted }
    else if attempt.timedOut { outcome = .timeout }
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
      note: attempt.note
    )
    attempt.completion(result)
  }

  /// One running attempt; touched only on the runner's queue, hence unchecked.
  private final class Attempt: @unchecked Sendable {
    let request: StepRequest
    let completion: @Sendable (AttemptResult) -> Void
    let sink: LogSink
    let started = Date()
    var pid: pid_t?
    /// The output pipe, read by `OutputPump` (which alone touches `sink` until it closes).
    var outputFD: Int32 = -1
    var timers: [any DispatchSourceTimer] = []
    var waitStatus: Int32?
    var builtinExit: Int32?
    var outputClosed = false
    var timedOut = false
    var interrupted = false
    var completed = false
    var note: String?

    init(request: StepRequest, completion: @escaping @Sendable (AttemptResult) -> Void) {
      self.request = request
      self.completion = completion
      self.sink = LogSink(url: request.logURL, onLine: request.onLine)
    }
  }
}
