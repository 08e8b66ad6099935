import Dispatch
import Foundation

/// The observer's calls, handed to its queue in batches. The run loop must
/// never wait on the observer (a terminal nobody reads holds only itself), so
/// the observer hears the run on a queue of its own; but a queue hop per event
/// woke that thread twice a lane (the end of one, the start of the next, made
/// in the same turn of the loop), and on two busy cores every wake is a context
/// switch the lanes wait behind. Calls posted while a batch waits join it: one
/// wake carries them all, in the order they were posted.
final class ObserverMailbox: @unchecked Sendable {
  private let queue: DispatchQueue
  private let lock = NSLock()
  private var pending: [() -> Void] = []
  private var scheduled = false
  private var batches = 0

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// Runs `call` on the observer's queue after every call posted before it.
  func post(_ call: @escaping () -> Void) {
    let schedule = lock.withLock {
      pending.append(call)
      defer { scheduled = true }
      return !scheduled
    }
    if schedule { queue.async { self.deliver() } }
  }

  /// How many wakes of the observer's queue carried the calls so far.
  var batchesDelivered: Int { lock.withLock { batches } }

  /// Returns once every call posted so far has run.
  func waitUntilDelivered() {
    queue.sync {}
  }

  private func deliver() {
    let batch = lock.withLock {
      defer { pending = []; scheduled = false; batches += 1 }
      return pending
    }
    for call in batch { call() }
  }
}
