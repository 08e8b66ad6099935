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
}

extension Locked where Value: Copyable {
  /// A copy of the value now.
  package var current: Value { withLock { $0 } }
}
