import DuetSupport

/// Ctrl-C for a run that may not have started yet: a request made before the
/// run loop exists is kept and posted to it the moment it does.
package final class RunInterruption: Sendable {
  private struct State: Sendable {
    var requested = false
    var loop: LaneLoop.Interrupter?
    var also: [@Sendable () -> Void] = []
  }

  private let state = Locked(State())

  init() {}

  /// Whether Ctrl-C (or SIGTERM) arrived.
  package var requested: Bool { state.withLock { $0.requested } }

  package func interrupt() {
    let (loop, also) = state.withLock { state -> (LaneLoop.Interrupter?, [@Sendable () -> Void]) in
      state.requested = true
      return (state.loop, state.also)
    }
    also.forEach { $0() }
    loop?.interrupt()
  }

  /// `action` runs when Ctrl-C arrives (at once if it has), on the signal's thread.
  func whenRequested(_ action: @escaping @Sendable () -> Void) {
    let requested = state.withLock { state -> Bool in
      state.also.append(action)
      return state.requested
    }
    if requested { action() }
  }

  func attach(_ loop: LaneLoop.Interrupter) {
    let requested = state.withLock { state -> Bool in
      state.loop = loop
      return state.requested
    }
    if requested { loop.interrupt() }
  }
}
