import Foundation

/// Work started on threads of its own and waited for together: a
/// `DispatchGroup` with `DispatchQueue.global()`, but on `DetachedThread`s, so
/// a machine with no descriptor or thread to give gets the work done on the
/// caller's thread, one piece after another, instead of a trap in libdispatch's
/// worker set-up (issue 52: `duet doctor` under `ulimit -n 9`).
package final class WorkGroup: @unchecked Sendable {
  private let condition = NSCondition()
  private var running = 0

  package init() {}

  /// Runs `work` on a new thread, or here when none can be made.
  package func run(_ work: @escaping @Sendable () -> Void) {
    condition.withLock { running += 1 }
    let made = DetachedThread.start { [self] in
      work()
      done()
    }
    if made != 0 {
      work()
      done()
    }
  }

  /// Returns once every piece of work given so far has ended.
  package func wait() {
    condition.lock()
    while running > 0 { condition.wait() }
    condition.unlock()
  }

  private func done() {
    condition.lock()
    running -= 1
    condition.broadcast()
    condition.unlock()
  }
}
