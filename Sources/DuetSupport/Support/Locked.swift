import Foundation

/// A value behind a lock: the one place that vouches for thread safety by hand,
/// so every other type can be checked `Sendable` by the compiler.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: consuming Value) { self.value = value }

  /// Runs `body` with the value, holding the lock; keep it short and never call out.
  @discardableResult
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

extension Locked where Value: Copyable {
  /// A copy of the value now.
  package var current: Value { withLock { $0 } }
}
