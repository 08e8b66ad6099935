import Foundation

/// When the reading of a lane's reports must stop: the end of the lane's
/// `timeout:`, so a report too slow to read (a slow disk, a huge file) cannot
/// hold the lane past the time its manifest gives it. Kept on the monotonic
/// clock, so a wall-clock step neither ends the reading early nor late.
struct ReadingDeadline {
  /// The monotonic clock, in nanoseconds.
  let now: () -> UInt64
  let end: UInt64

  /// `wall`: seconds since 1970 (the attempt's start plus its timeout); `.infinity`: never.
  init(wall: Double) {
    let now = ReadingDeadline.monotonic
    let left = wall - Date().timeIntervalSince1970
    let start = now()
    self.init(end: left.isFinite ? (left <= 0 ? 0 : start &+ UInt64(min(left, 1e9) * 1e9)) : .max, now: now)
  }

  init(end: UInt64, now: @escaping () -> UInt64 = ReadingDeadline.monotonic) {
    self.end = end
    self.now = now
  }

  var passed: Bool { end != .max && now() >= end }

  static func monotonic() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}
