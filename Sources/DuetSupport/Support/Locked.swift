import Foundation

/// A value behind a lock: the one place that vouches for thread safety by hand,
/// so every other type can be checked `Sendable` by the compiler. What makes it
/// safe: `value` is reached only inside `withLock` or `wait`, with the lock held.
/// The lock is a condition too, so a thread can wait for another's change
/// (`wait`, `broadcast`) without a second hand-made lock.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Value

  package init(_ value: consuming Value) { self.value = value }

  /// Runs `body` with the value, holding the lock; keep it short and never call out.
  @discardableResult
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    condition.lock()
    defer { condition.unlock() }
    return try body(&value)
  }

  /// Waits, the lock let go meanwhile, until `ready` holds (checked with the
  /// lock held, again after each `broadcast`) or `deadline` passes; then runs
  /// `body` with the lock held, whichever it was.
  @discardableResult
  package func wait<Result>(until deadline: Date? = nil, for ready: (borrowing Value) -> Bool, then body: (inout Value) throws -> Result) rethrows -> Result {
    condition.lock()
    defer { condition.unlock() }
    while !ready(value) {
      if let deadline {
        if !condition.wait(until: deadline) { break }
      } else {
        condition.wait()
      }
    }
    return try body(&value)
  }

  /// Wakes every `wait`, which then checks its condition again.
  package func broadcast() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }

  /// Wakes one `wait` (any one): for a change any waiter can take up, so
  /// the others sleep on (a pool's next piece of work).
  package func signal() {
    condition.lock()
    condition.signal()
    condition.unlock()
  }
}

extension Locked where Value: Copyable {
  /// `wait` with no deadline that counts itself in `sleepers` while it
  /// sleeps: a pool tells from the count whether a sleeping thread will take
  /// the next piece, or a new one is needed.
  @discardableResult
  package func wait<Result>(countedIn sleepers: WritableKeyPath<Value, Int>, for ready: (Value) -> Bool,
                            then body: (inout Value) throws -> Result) rethrows -> Result {
    condition.lock()
    defer { condition.unlock() }
    while !ready(value) {
      value[keyPath: sleepers] += 1
      condition.wait()
      value[keyPath: sleepers] -= 1
    }
    return try body(&value)
  }

  /// A copy of the value now.
  package var current: Value { withLock { $0 } }
}
