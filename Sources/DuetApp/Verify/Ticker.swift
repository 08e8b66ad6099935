import DuetProcess
import DuetSupport
import Foundation

/// Calls `tick` every `interval` seconds on a thread of its own until
/// cancelled: the progress line's clock. Not a Dispatch timer source, which
/// traps when libdispatch cannot make its epoll or eventfd descriptor
/// (`ulimit -n` reached, issue 52); where no thread can be made, there is no
/// tick, and the progress line is redrawn only as lanes start and end.
final class Ticker: Sendable {
  private struct State {
    var cancelled = false
    /// A tick asked for now (`fire`), ahead of the interval.
    var fired = false
  }

  private let state = Locked(State())

  /// Nil when no thread could be made.
  init?(interval: Double, _ tick: @escaping @Sendable () -> Void) {
    let made = DetachedThread.start { [state] in
      while true {
        // After the interval or a `fire`, a tick, unless cancelled meanwhile.
        let go = state.wait(until: Date(timeIntervalSinceNow: interval), for: { $0.fired || $0.cancelled }) { now -> Bool in
          now.fired = false
          return !now.cancelled
        }
        guard go else { return }
        tick()
      }
    }
    guard made == 0 else { return nil }
  }

  /// A tick now, on the ticker's thread, then every `interval` again: takes a
  /// lock for an instant and never waits, so a signal thread may call it.
  func fire() {
    state.withLock { $0.fired = true }
    state.broadcast()
  }

  /// No tick after this returns but one already under way.
  func cancel() {
    state.withLock { $0.cancelled = true }
    state.broadcast()
  }
}
