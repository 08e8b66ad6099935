import Dispatch
import Foundation

/// The observer's calls, handed to its queue in batches. The run loop must
/// never wait on the observer (a terminal nobody reads holds only itself), so
/// the observer hears the run on a queue of its own; but a queue hop per event
/// woke that thread twice a lane (the end of one, the start of the next, made
/// in the same turn of the loop), and on two busy cores every wake is a context
/// switch the lanes wait behind. Calls posted while a batch waits join it: one
/// wake carries them all, in the order they were posted.
///
/// Held until flushed (`heldUntilFlush`), a call waits for the run loop's
/// `flush`, which it makes just before it blocks: the end of a lane is then
/// heard after the next lane has started, not before, so the wake costs the
/// link from one lane to the next nothing.
final class ObserverMailbox: @unchecked Sendable {
  let queue: DispatchQueue
  private let held: Bool
  private let lock = NSLock()
  private var pending: [() -> Void] = []
  private var scheduled = false
  private var batches = 0

  init(label: String, heldUntilFlush: Bool = false) {
    queue = DispatchQueue(label: label)
    held = heldUntilFlush
  }

  /// Runs `call` on the observer's queue after every call posted before it
  /// (when held, once `flush` is called).
  func post(_ call: @escaping () -> Void) {
    let schedule = lock.withLock {
      pending.append(call)
      return !held && claimWake()
    }
    if schedule { queue.async { self.deliver() } }
  }

  /// Hands the calls posted so far to the observer's queue.
  func flush() {
    if lock.withLock({ !pending.isEmpty && claimWake() }) { queue.async { self.deliver() } }
  }

  /// Whether this caller wakes the queue: no wake is on its way yet. Under the lock.
  private func claimWake() -> Bool {
    defer { scheduled = true }
    return !scheduled
  }

  /// How many wakes of the observer's queue carried the calls so far.
  var batchesDelivered: Int { lock.withLock { batches } }

  /// Returns once every call posted so far has run.
  func waitUntilDelivered() {
    flush()
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
