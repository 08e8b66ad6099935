import Foundation

/// The pump's timers: a child's deadline, the grace before SIGKILL, the wait
/// for a pipe after the exit. They fire on the pump's thread, whose `poll`
/// sleeps until the earliest, so a lane's deadline costs no Dispatch timer
/// (each one woke Dispatch's manager thread) and no thread of its own.
package struct DeadlineList: Sendable {
  private var entries: [(at: UInt64, body: @Sendable () -> Void)] = []

  /// Monotonic nanoseconds.
  package static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Nanoseconds from now until `seconds` have passed, clamped to a year, so a
  /// timeout of centuries cannot overflow.
  package static func at(after seconds: Double) -> UInt64 {
    now() + UInt64(min(max(0, seconds), 365 * 24 * 3600) * 1e9)
  }

  package mutating func add(at deadline: UInt64, _ body: @escaping @Sendable () -> Void) {
    entries.append((deadline, body))
  }

  package var isEmpty: Bool { entries.isEmpty }

  package mutating func merge(_ other: DeadlineList) {
    entries += other.entries
  }

  /// Milliseconds `poll` may sleep: until the earliest deadline, rounded up; -1 with none.
  package func pollTimeout(now: UInt64) -> Int32 {
    guard let earliest = entries.lazy.map(\.at).min() else { return -1 }
    guard earliest > now else { return 0 }
    return Int32(min((earliest - now + 999_999) / 1_000_000, UInt64(Int32.max)))
  }

  /// Removes and returns the bodies whose deadline has passed, earliest first.
  package mutating func takeDue(now: UInt64) -> [@Sendable () -> Void] {
    let due = entries.filter { $0.at <= now }.sorted { $0.at < $1.at }
    guard !due.isEmpty else { return [] }
    entries.removeAll { $0.at <= now }
    return due.map(\.body)
  }
}
