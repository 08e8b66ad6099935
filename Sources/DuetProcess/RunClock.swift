import Foundation

/// Where an event loop reads the time: monotonic nanoseconds for deadlines and
/// durations, and the wall clock for the moment an attempt started. Tests hand
/// the loop a clock they move themselves, so no test waits for time to pass.
public protocol RunClock: AnyObject {
  /// Monotonic nanoseconds.
  var now: UInt64 { get }
  /// Seconds since 1970, for records.
  var wallSeconds: Double { get }
}

/// The machine's clocks.
public final class SystemClock: RunClock {
  public init() {}
  public var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
  public var wallSeconds: Double { Date().timeIntervalSince1970 }
}

extension RunClock {
  /// `now` plus `seconds`, clamped to a year, so a timeout of centuries cannot overflow.
  public func deadline(after seconds: Double) -> UInt64 {
    now &+ UInt64(min(max(0, seconds), 365 * 24 * 3600) * 1e9)
  }
}
