import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way duet runs a child process, for lanes, mock generators, version
/// probes and `git`: a process group of its own, output read by the pump under
/// an owner token, a deadline that stops the whole group (SIGTERM, a grace
/// period, SIGKILL), and an end that waits for the pipe at most `drainGrace`
/// after the child itself has exited, so a grandchild that escaped the group
/// (`setsid`) and holds the pipe cannot hang duet.
public final class ChildRun: Sendable {
  public struct Limits: Sendable {
    /// Seconds from the start until the group is stopped; nil: no deadline.
    public var timeout: Double?
    /// Seconds between SIGTERM and SIGKILL.
    public var killGrace: Double
    /// Seconds to keep reading after the child exited before dropping the pipe.
    public var drainGrace: Double

    public init(timeout: Double?, killGrace: Double = 5, drainGrace: Double = 2) {
      self.timeout = timeout
      self.killGrace = killGrace
      self.drainGrace = drainGrace
    }
  }

  /// How a child ended.
  public struct End: Sendable {
    /// The `waitpid` status; nil when the child never started.
    public var waitStatus: Int32?
    /// The deadline passed and the group was stopped.
    public var timedOut: Bool
    /// `stop()` was called (Ctrl-C) before it ended.
    public var stopped: Bool
    /// Why the child could not start.
    public var spawnError: String?

    public var exitCode: Int32? { waitStatus.flatMap(DuetSupport.exitCode(ofWaitStatus:)) }
    public var signal: Int32? { waitStatus.flatMap(terminatingSignal(ofWaitStatus:)) }
    public var succeeded: Bool { exitCode == 0 && !timedOut && !stopped }
  }

  private struct State: Sendable {
    var pid: pid_t?
    var token: OutputPump.Token?
    var waitStatus: Int32?
    var outputClosed = false
    var timedOut = false
    var stopped = false
    var completed = false
  }

  private static let queue = DispatchQueue(label: "duet.children")
  /// Every child started and not yet ended, so a signal to duet can stop them all.
  private static let live = Locked<[ObjectIdentifier: ChildRun]>([:])
  private let limits: Limits
  private let completion: @Sendable (End) -> Void
  private let state = Locked(State())

  private init(limits: Limits, completion: @escaping @Sendable (End) -> Void) {
    self.limits = limits
    self.completion = completion
  }

  /// Starts `arguments[0]` (a path) and returns at once; `onBytes` gets the merged
  /// stdout and stderr on the pump thread; `completion` is called exactly once.
  @discardableResult
  public static func start(path: String, arguments: [String], directory: String, environment: [String: String], limits: Limits,
                           onBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                           completion: @escaping @Sendable (End) -> Void) -> ChildRun {
    let run = ChildRun(limits: limits, completion: completion)
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(path: path, arguments: arguments, directory: directory, environment: environment)
    } catch {
      run.state.withLock { $0.completed = true }
      queue.async { completion(End(waitStatus: nil, timedOut: false, stopped: false, spawnError: error.description)) }
      return run
    }
    run.state.withLock { $0.pid = child.pid }
    live.withLock { $0[ObjectIdentifier(run)] = run }
    // The ends are handled where they are noticed (the pump thread, the reaper's
    // queue): the state is behind a lock, and each hop to another queue would
    // sit between one lane's end and the next lane's start.
    let token = OutputPump.shared.add(child.output, OutputPump.Reader(
      onBytes: onBytes,
      onClose: { run.outputClosed() }))
    run.state.withLock { $0.token = token }
    // With a pidfd (Linux) the pump notices the exit too, on the same thread.
    if child.pidfd >= 0 {
      OutputPump.shared.watchExit(.init(pidfd: child.pidfd, pid: child.pid) { status in run.exited(status) })
    } else {
      ChildReaper.shared.watch(child.pid) { status in run.exited(status) }
    }
    if let timeout = limits.timeout {
      run.after(timeout) { run.deadlinePassed() }
    }
    return run
  }

  /// `/bin/sh -c command`.
  @discardableResult
  public static func shell(_ command: String, directory: String, environment: [String: String], limits: Limits,
                           onBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                           completion: @escaping @Sendable (End) -> Void) -> ChildRun {
    start(path: "/bin/sh", arguments: ["/bin/sh", "-c", command], directory: directory, environment: environment, limits: limits,
          onBytes: onBytes, completion: completion)
  }

  /// Stops the child's group: SIGTERM now, SIGKILL after the grace period.
  public func stop() {
    ChildRun.queue.async {
      let pid = self.state.withLock { state -> pid_t? in
        guard !state.completed else { return nil }
        state.stopped = true
        return state.pid
      }
      if let pid { self.terminate(pid) }
    }
  }

  // MARK: - Ends and deadlines

  /// Runs `body` later on the pump's thread, whose `poll` keeps the deadlines
  /// (no Dispatch timer per child); every body checks `completed` itself, so
  /// nothing needs cancelling when the child ends first.
  private func after(_ seconds: Double, _ body: @escaping @Sendable () -> Void) {
    OutputPump.shared.after(seconds, body)
  }

  /// Now plus `seconds`, clamped to a year, so a timeout of centuries cannot
  /// overflow Dispatch's nanoseconds.
  package static func deadline(after seconds: Double) -> DispatchTime {
    .now() + min(max(0, seconds), 365 * 24 * 3600)
  }

  private func terminate(_ pid: pid_t) {
    signalGroup(pid, SIGTERM)
    after(limits.killGrace) { [self] in
      if !state.withLock({ $0.completed }) { signalGroup(pid, SIGKILL) }
    }
  }

  private func deadlinePassed() {
    let pid = state.withLock { state -> pid_t? in
      guard !state.completed, state.waitStatus == nil else { return nil }
      state.timedOut = true
      return state.pid
    }
    if let pid { terminate(pid) }
  }

  private func exited(_ status: Int32) {
    let token = state.withLock { state -> OutputPump.Token? in
      state.waitStatus = status
      return state.outputClosed ? nil : state.token
    }
    completeIfDone()
    // A grandchild outside the group may hold the pipe; stop waiting for it.
    if let token {
      after(limits.drainGrace) { [self] in
        if !state.withLock({ $0.outputClosed }) { OutputPump.shared.drop(token) }
      }
    }
  }

  private func outputClosed() {
    state.withLock { $0.outputClosed = true }
    completeIfDone()
  }

  private func completeIfDone() {
    let end = state.withLock { state -> End? in
      guard !state.completed, let status = state.waitStatus, state.outputClosed else { return nil }
      state.completed = true
      return End(waitStatus: status, timedOut: state.timedOut, stopped: state.stopped, spawnError: nil)
    }
    if let end {
      ChildRun.live.withLock { $0[ObjectIdentifier(self)] = nil }
      completion(end)
    }
  }

  /// Stops every running child's group (SIGTERM, then SIGKILL after its grace);
  /// returns how many there were. For a signal to duet itself.
  @discardableResult
  public static func stopAll() -> Int {
    let runs = live.withLock { Array($0.values) }
    runs.forEach { $0.stop() }
    return runs.count
  }

  /// How many children are running now.
  public static var running: Int { live.withLock { $0.count } }

  /// The pids of the children duet started itself and still waits for: never a
  /// lane's leftover, whatever the subreaper finds.
  public static var livePIDs: Set<pid_t> {
    Set(live.withLock { Array($0.values) }.compactMap { $0.state.withLock { $0.pid } })
  }
}

extension ChildRun {
  /// What `capture` returns: how the child ended and the last bytes it printed.
  public struct Captured: Sendable {
    public var end: End
    /// The last `keep` bytes of stdout and stderr, merged.
    public var output: [UInt8]
    public var text: String { String(decoding: output, as: UTF8.self) }
  }

  /// Runs a child to its end and keeps the last `keep` bytes of its output,
  /// blocking the calling thread; `onBytes` also sees every byte (to hash a
  /// `git diff` without holding it).
  public static func capture(path: String, arguments: [String], directory: String, environment: [String: String], limits: Limits,
                             keep: Int, onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil) -> Captured {
    let kept = Locked(BoundedBytes(limit: keep))
    let result = Locked<End?>(nil)
    let done = DispatchSemaphore(value: 0)
    start(path: path, arguments: arguments, directory: directory, environment: environment, limits: limits,
          onBytes: { bytes in
            onBytes?(bytes)
            kept.withLock { $0.append(bytes) }
          },
          completion: { end in
            result.withLock { $0 = end }
            done.signal()
          })
    done.wait()
    return Captured(end: result.current!, output: kept.withLock { $0.bytes })
  }

  /// `capture` of `/bin/sh -c command`.
  public static func captureShell(_ command: String, directory: String, environment: [String: String], limits: Limits,
                                  keep: Int, onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil) -> Captured {
    capture(path: "/bin/sh", arguments: ["/bin/sh", "-c", command], directory: directory, environment: environment, limits: limits,
            keep: keep, onBytes: onBytes)
  }
}

/// The last `limit` bytes appended.
package struct BoundedBytes: Sendable {
  package let limit: Int
  package private(set) var storage: [UInt8] = []

  package init(limit: Int) { self.limit = max(0, limit) }

  package mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard limit > 0 else { return }
    storage.append(contentsOf: bytes.count > limit ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - limit)...]) : bytes)
    if storage.count > limit * 2 { storage.removeFirst(storage.count - limit) }
  }

  package var bytes: [UInt8] { Array(storage.suffix(limit)) }
}
