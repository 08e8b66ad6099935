import DuetProcess
import Foundation

/// Calls `tick` every `interval` seconds on a thread of its own until
/// cancelled: the progress line's clock. Not a Dispatch timer source, which
/// traps when libdispatch cannot make its epoll or eventfd descriptor
/// (`ulimit -n` reached, issue 52); where no thread can be made, there is no
/// tick, and the progress line is redrawn only as lanes start and end.
package final class Ticker: @unchecked Sendable {
  private let condition = NSCondition()
  private var cancelled = false
  /// A tick asked for now (`fire`), ahead of the interval.
  private var fired = false

  /// Nil when no thread could be made.
  package init?(interval: Double, _ tick: @escaping @Sendable () -> Void) {
    let made = DetachedThread.start { [self] in
      condition.lock()
      while !cancelled {
        if (fired || !condition.wait(until: Date(timeIntervalSinceNow: interval))) && !cancelled {
          fired = false
          condition.unlock()
          tick()
          condition.lock()
        }
      }
      condition.unlock()
    }
    guard made == 0 else { return nil }
  }

  /// A tick now, on the ticker's thread, then every `interval` again: takes a
  /// lock for an instant and never waits, so a signal thread may call it.
  package func fire() {
    condition.lock()
    fired = true
    condition.broadcast()
    condition.unlock()
  }

  /// No tick after this returns but one already under way.
  package func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
