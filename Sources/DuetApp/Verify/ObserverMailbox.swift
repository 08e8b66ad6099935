import DuetProcess
import DuetSupport
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
final class ObserverMailbox: Sendable {
  private struct State {
    /// Posted, not yet handed to the thread (held until `flush`).
    var pending: [() -> Void] = []
    /// Handed to the thread, not yet taken by it.
    var handed: [() -> Void] = []
    var delivering = false
    var batches = 0
    /// nil until the first hand-over; then whether the thread was made.
    var threadMade: Bool?
    var closed = false
  }

  private let held: Bool
  private let state = Locked(State())

  init(label: String, heldUntilFlush: Bool = false) {
    held = heldUntilFlush
  }

  /// Runs `call` on the observer's thread after every call posted before it
  /// (when held, once `flush` is called).
  func post(_ call: @escaping () -> Void) {
    state.withLock { $0.pending.append(call) }
    if !held { flush() }
  }

  /// Hands the calls posted so far to the observer's thread.
  func flush() {
    let (batch, wake) = state.withLock { now -> ([() -> Void], Bool) in
      guard !now.pending.isEmpty else { return ([], false) }
      if now.threadMade == nil { now.threadMade = DetachedThread.start { [self] in serve() } == 0 }
      if now.threadMade == true {
        // One wake carries every call handed over before the thread takes them.
        let wake = now.handed.isEmpty
        now.handed += now.pending
        now.pending = []
        return ([], wake)
      }
      // No thread to be had: the calls run here, in order.
      let batch = now.pending
      now.pending = []
      now.batches += 1
      return (batch, false)
    }
    if wake { state.broadcast() }
    for call in batch { call() }
  }

  /// Returns once every call posted so far has run; the thread then ends.
  /// How many wakes of the observer's thread (or runs here) carried the calls.
  @discardableResult
  func waitUntilDelivered() -> Int {
    flush()
    let batches = state.wait(for: { $0.handed.isEmpty && !$0.delivering }) { now -> Int in
      now.closed = true
      return now.batches
    }
    state.broadcast()
    return batches
  }

  /// Returns once every call handed over so far has run (held calls wait on).
  func waitUntilIdle() {
    state.wait(for: { $0.handed.isEmpty && !$0.delivering }) { _ in }
  }

  /// The observer's thread: takes each batch handed over and runs it, until closed.
  private func serve() {
    while true {
      let batch = state.wait(for: { !$0.handed.isEmpty || $0.closed }) { now -> [() -> Void]? in
        if now.handed.isEmpty { return nil }  // closed, and nothing left
        let batch = now.handed
        now.handed = []
        now.delivering = true
        return batch
      }
      guard let batch else { return }
      for call in batch { call() }
      state.withLock {
        $0.delivering = false
        $0.batches += 1
      }
      state.broadcast()
    }
  }
}
