import DuetProcess
import Foundation

/// The observer's calls, handed to a thread of its own in batches. The run
/// loop must never wait on the observer (a terminal nobody reads holds only
/// itself), so the observer hears the run on its own thread; but a hop per
/// event woke that thread twice a lane (the end of one, the start of the next,
/// made in the same turn of the loop), and on two busy cores every wake is a
/// context switch the lanes wait behind. Calls posted while a batch waits join
/// it: one wake carries them all, in the order they were posted.
///
/// Held until flushed (`heldUntilFlush`), a call waits for the run loop's
/// `flush`, which it makes just before it blocks: the end of a lane is then
/// heard after the next lane has started, not before, so the wake costs the
/// link from one lane to the next nothing.
///
/// The thread is made with `pthread_create` (`DetachedThread`), not a
/// Dispatch queue, which traps or waits for good when the machine has no
/// descriptor or thread to give (issue 52). Where no thread can be made, the
/// calls run on the thread that hands them over: a run that cannot print
/// elsewhere prints there, rather than hang.
final class ObserverMailbox: @unchecked Sendable {
  private let held: Bool
  private let condition = NSCondition()
  /// Posted, not yet handed to the thread (held until `flush`).
  private var pending: [() -> Void] = []
  /// Handed to the thread, not yet taken by it.
  private var handed: [() -> Void] = []
  private var delivering = false
  private var batches = 0
  /// nil until the first hand-over; then whether the thread was made.
  private var threadMade: Bool?
  private var closed = false

  init(label: String, heldUntilFlush: Bool = false) {
    held = heldUntilFlush
  }

  /// Runs `call` on the observer's thread after every call posted before it
  /// (when held, once `flush` is called).
  func post(_ call: @escaping () -> Void) {
    condition.lock()
    pending.append(call)
    condition.unlock()
    if !held { flush() }
  }

  /// Hands the calls posted so far to the observer's thread.
  func flush() {
    condition.lock()
    guard !pending.isEmpty else { return condition.unlock() }
    if threadMade == nil { threadMade = DetachedThread.start { [self] in serve() } == 0 }
    if threadMade == true {
      // One wake carries every call handed over before the thread takes them.
      let wake = handed.isEmpty
      handed += pending
      pending = []
      if wake { condition.broadcast() }
      condition.unlock()
      return
    }
    // No thread to be had: the calls run here, in order.
    let batch = pending
    pending = []
    batches += 1
    condition.unlock()
    for call in batch { call() }
  }

  /// How many wakes of the observer's thread carried the calls so far.
  var batchesDelivered: Int { condition.withLock { batches } }

  /// Returns once every call posted so far has run; the thread then ends.
  func waitUntilDelivered() {
    flush()
    waitUntilIdle()
    condition.withLock {
      closed = true
      condition.broadcast()
    }
  }

  /// Returns once every call handed over so far has run (held calls wait on).
  func waitUntilIdle() {
    condition.lock()
    while !handed.isEmpty || delivering { condition.wait() }
    condition.unlock()
  }

  /// The observer's thread: takes each batch handed over and runs it, until closed.
  private func serve() {
    condition.lock()
    while true {
      while handed.isEmpty && !closed { condition.wait() }
      if handed.isEmpty && closed { break }
      let batch = handed
      handed = []
      delivering = true
      condition.unlock()
      for call in batch { call() }
      condition.lock()
      delivering = false
      batches += 1
      condition.broadcast()
    }
    condition.unlock()
  }
}
