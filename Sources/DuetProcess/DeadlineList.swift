import Foundation

/// An event loop's timers: a child's deadline, the grace before SIGKILL, the
/// wait for a pipe after the exit, a built-in's timeout. They fire on the
/// loop's thread, whose wait sleeps until the earliest, so a deadline costs no
/// Dispatch timer and no thread. A timer that is no longer wanted is cancelled
/// by its token, so the list holds only what the running children need.
package struct DeadlineList {
  /// Names one timer, for `cancel`.
  package struct Token: Hashable, Sendable {
    fileprivate let value: UInt64
  }

  private var entries: [(at: UInt64, token: UInt64, body: () -> Void)] = []
  private var nextToken: UInt64 = 0

  init() {}

  /// Monotonic nanoseconds.
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Nanoseconds from now until `seconds` have passed, clamped to a year, so a
  /// timeout of centuries cannot overflow.
  static func at(after seconds: Double) -> UInt64 {
    now() + nanoseconds(clamping: seconds)
  }

  /// `seconds` in nanoseconds, clamped to 0...a year. (Spelt with typed
  /// constants: the literal arithmetic took the type checker a third of a second.)
  static func nanoseconds(clamping seconds: Double) -> UInt64 {
    let year: Double = 365 * 24 * 3600
    let clamped: Double = Swift.min(Swift.max(0, seconds), year)
    return UInt64(clamped * 1e9)
  }

  @discardableResult
  mutating func add(at deadline: UInt64, _ body: @escaping () -> Void) -> Token {
    nextToken += 1
    entries.append((deadline, nextToken, body))
    return Token(value: nextToken)
  }

  /// Drops the timer; nothing happens when it has fired already.
  mutating func cancel(_ token: Token) {
    if let index = entries.firstIndex(where: { $0.token == token.value }) { entries.remove(at: index) }
  }

  var isEmpty: Bool { entries.isEmpty }

  /// Nanoseconds until the earliest deadline (0 when one is due); nil with none.
  func timeout(now: UInt64) -> UInt64? {
    entries.lazy.map(\.at).min().map { $0 > now ? $0 - now : 0 }
  }

  /// Milliseconds `poll` may sleep: until the earliest deadline, rounded up; -1 with none.
  func pollTimeout(now: UInt64) -> Int32 {
    guard let nanoseconds = timeout(now: now) else { return -1 }
    return Int32(min((nanoseconds + 999_999) / 1_000_000, UInt64(Int32.max)))
  }

  /// Removes and returns the bodies whose deadline has passed, earliest first
  /// (in the order they were added when two are due at once).
  mutating func takeDue(now: UInt64) -> [() -> Void] {
    guard entries.contains(where: { $0.at <= now }) else { return [] }
    let due = entries.filter { $0.at <= now }.sorted { ($0.at, $0.token) < ($1.at, $1.token) }
    entries.removeAll { $0.at <= now }
    return due.map(\.body)
  }
}
