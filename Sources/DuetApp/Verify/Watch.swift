import DuetModel
import DuetRun
import DuetSupport
import Foundation

/// What stops `duet verify --watch`: a signal (Ctrl-C) interrupts the run in
/// progress, or wakes the wait for changes; either way the watch ends.
public final class WatchControl: Sendable {
  private struct State: Sendable {
    var stopped = false
    var onSignal: (@Sendable () -> Void)?
    var watcher: FileWatcher?
  }
  private let state = Locked(State())

  public init() {}

  /// Ends the watch: the run in progress is interrupted, the wait woken.
  public func stop() {
    let (onSignal, watcher) = state.withLock { state in
      state.stopped = true
      return (state.onSignal, state.watcher)
    }
    onSignal?()
    watcher?.wake()
  }

  public var isStopped: Bool { state.withLock { $0.stopped } }

  /// The signal guard each run of the watch gets: a stop while it runs interrupts it.
  var signals: SignalGuard {
    { [self] onSignal, body in
      let stoppedAlready = state.withLock { state -> Bool in
        state.onSignal = onSignal
        return state.stopped
      }
      if stoppedAlready { onSignal() }
      defer { state.withLock { $0.onSignal = nil } }
      return body()
    }
  }

  func watching(_ watcher: FileWatcher) {
    let stopped = state.withLock { state -> Bool in
      state.watcher = watcher
      return state.stopped
    }
    if stopped { watcher.wake() }
  }
}

/// What the watch tells between runs; each run itself talks through `verify`.
public struct WatchObserver: Sendable {
  /// A run's response, to print as `duet verify` does.
  public var ran: @Sendable (VerifyResponse) -> Void
  /// Files changed since the last run, and why each lane runs for them (empty: none is affected).
  public var changed: @Sendable (_ files: [String], _ lanes: [(name: String, reason: String)]) -> Void
  /// Files that changed while a run was going (a lane may have written them): not acted on.
  public var changedDuringRun: @Sendable ([String]) -> Void
  /// Waiting for the next change.
  public var waiting: @Sendable () -> Void
  /// A run that could not start (a manifest made invalid by an edit): the watch goes on.
  public var failed: @Sendable (Error) -> Void

  public init(ran: @escaping @Sendable (VerifyResponse) -> Void, changed: @escaping @Sendable ([String], [(name: String, reason: String)]) -> Void,
              changedDuringRun: @escaping @Sendable ([String]) -> Void, waiting: @escaping @Sendable () -> Void,
              failed: @escaping @Sendable (Error) -> Void) {
    self.ran = ran
    self.changed = changed
    self.changedDuringRun = changedDuringRun
    self.waiting = waiting
    self.failed = failed
  }
}

/// `duet verify --watch`: runs `request`, then waits for files to change
/// (told by the kernel, no polling), lets them settle, and runs again the lanes
/// they affect, by the rule `--since` uses (`VerifyOptions.changed`, decided by
/// `AffectedLanes`); an edit to the manifest runs every selected lane. Files a
/// run changes (a lane writing its own input) are reported but start no run,
/// so a lane cannot make the watch loop. Each run is recorded as any verify
/// is. Returns the exit code: 130 once stopped, else the last run's.
public func watch(_ request: VerifyRequest, control: WatchControl, verifyObserver: VerifyObserver, observer: WatchObserver) throws -> Int32 {
  let watcher: FileWatcher
  do { watcher = try FileWatcher(root: request.root) } catch { throw VerifyFailure.usage("--watch: \(error)") }
  control.watching(watcher)
  var response = try verify(request, observer: verifyObserver, signals: control.signals)
  observer.ran(response)
  var justRan = true
  while !control.isStopped && response.exitCode != 130 {
    if justRan {
      let during = watcher.drain()
      if !during.isEmpty { observer.changedDuringRun(during) }
    }
    justRan = false
    observer.waiting()
    guard let files = watcher.wait() else { break }
    var next = request
    let lanes: [(name: String, reason: String)]
    if files.contains(Manifest.defaultPath) || files.contains(ParityManifest.defaultPath) {
      lanes = [(name: "every lane", reason: "\(files.contains(Manifest.defaultPath) ? Manifest.defaultPath : ParityManifest.defaultPath) changed")]
    } else {
      next.options.changed = ChangedFiles.Result(base: "watch", description: "the last run", files: files)
      do { lanes = try affected(next) } catch {
        observer.failed(error)
        continue
      }
    }
    observer.changed(files, lanes)
    guard !lanes.isEmpty else { continue }
    do {
      response = try verify(next, observer: verifyObserver, signals: control.signals)
      observer.ran(response)
    } catch {
      observer.failed(error)
    }
    justRan = true
  }
  return control.isStopped || response.exitCode == 130 ? 130 : response.exitCode
}

/// The lanes a change runs, each with why, in start order; none when the change touches no lane.
private func affected(_ request: VerifyRequest) throws -> [(name: String, reason: String)] {
  let tree = try TreeManifest.load(root: request.root)
  let plan = try verifyPlan(request, manifest: tree.manifest, options: request.options)
  return plan.startOrder.compactMap { index in
    guard case .runs(let reason)? = plan.affected[index] else { return nil }
    return (name: plan.manifest.lanes[index].name, reason: reason)
  }
}
