import DuetSupport

/// Threads that stay for the next piece of work: the run loop hands every
/// attempt's start and end work to a worker, and a thread made and ended per
/// attempt cost a 1,000-lane run about 80 µs a lane (tools/bench-latency: 1.09×
/// ninja became 1.31×). A piece goes to a thread that waits idle, or to a new
/// one (`DetachedThread`) when none waits, so a long piece (a big output being
/// stored) never holds up the next; with no thread to be had, it runs on the
/// caller's thread, late but never lost (DESIGN §14). Idle threads wait on a
/// condition and cost nothing until the process ends.
package final class WorkerPool: Sendable {
  /// The process's pool: the threads outlive one run, as a second run in the
  /// same process (tests, `deflake`) reuses them.
  package static let shared = WorkerPool()

  private struct State {
    var queue: [() -> Void] = []
    /// Threads waiting for work that no piece has claimed yet.
    var idle = 0
    /// Threads made, for tests and diagnostics.
    var made = 0
  }

  private let state = Locked(State())

  package init() {}

  /// How many threads the pool has made, and how many wait unclaimed (for tests).
  package var threads: (made: Int, idle: Int) { state.withLock { ($0.made, $0.idle) } }

  /// Runs `work` on a waiting thread, a new one, or here when none can be made.
  package func run(_ work: @escaping () -> Void) {
    let needsThread = state.withLock { state -> Bool in
      state.queue.append(work)
      guard state.idle == 0 else {
        state.idle -= 1
        return false
      }
      state.made += 1
      return true
    }
    guard needsThread else { return state.broadcast() }
    if DetachedThread.start({ [self] in serve() }) != 0 {
      state.withLock { $0.made -= 1 }
      // Some piece the thread was made for; another thread may have taken it already.
      takeOne()?()
    }
  }

  private func takeOne() -> (() -> Void)? {
    state.withLock { $0.queue.isEmpty ? nil : $0.queue.removeFirst() }
  }

  /// A worker's life: take a piece, run it, wait idle for the next.
  private func serve() {
    while true {
      let work = state.wait(for: { !$0.queue.isEmpty }) { $0.queue.removeFirst() }
      work()
      state.withLock { $0.idle += 1 }
    }
  }
}
