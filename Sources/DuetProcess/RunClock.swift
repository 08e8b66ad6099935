import Foundation

/// Where an event loop reads the time: monotonic nanoseconds for deadlines and
/// durations, and the wall clock for the moment an attempt started. Tests hand
/// the loop a clock they move themselves, so no test waits for time to pass.
package protocol RunClock: AnyObject {
  /// Monotonic nanoseconds.
  var now: UInt64 { get }
  /// Seconds since 1970, for records.
  var wallSeconds: Double { get }
}

/// The machine's clocks.
package final class SystemClock: RunClock {
  package init() {}
  package var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
  package var wallSeconds: Double { Date().timeIntervalSince1970 }
}

extension RunClock {
  /// `now` plus `seconds`, clamped to a year, so a timeout of centuries cannot overflow.
  package func deadline(after seconds: Double) -> UInt64 {
    now &+ DeadlineList.nanoseconds(clamping: seconds)
  }
}
