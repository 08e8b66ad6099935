import Dispatch
import DuetSupport

/// Work started on threads of its own and waited for together: a
/// `DispatchGroup` with `DispatchQueue.global()`, but on `WorkerPool` threads, so
/// a machine with no descriptor or thread to give gets the work done on the
/// caller's thread, one piece after another, instead of a trap in libdispatch's
/// worker set-up (issue 52: `duet doctor` under `ulimit -n 9`). A semaphore
/// needs no Dispatch thread: its wait is the kernel's.
///
/// The group is its owner's: one thread starts the work and waits for it, so
/// the count of what was started is that thread's and needs no lock (not
/// `Sendable`: the compiler keeps it on the one thread).
package final class WorkGroup {
  private var started = 0
  private let ended = DispatchSemaphore(value: 0)

  package init() {}

  /// Runs `work` on a thread of the process's `WorkerPool` (an idle one or a
  /// new one), or here when none can be made.
  package func run(_ work: @escaping @Sendable () -> Void) {
    started += 1
    let ended = self.ended
    WorkerPool.shared.run {
      work()
      ended.signal()
    }
  }

  /// Returns once every piece of work given so far has ended.
  package func wait() {
    let count = started
    started = 0
    for _ in 0..<count { ended.wait() }
  }
}
