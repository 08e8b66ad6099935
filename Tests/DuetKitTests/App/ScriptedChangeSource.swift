import Foundation
@testable import DuetSupport

/// A change source that tells what its script says, at the script's times on
/// a fake clock, as `FakePoller` plays children: a wait with nothing due moves
/// the clock by its timeout (or to the next event) instead of sleeping. When
/// the script is played out, a wait with no limit returns nil, as a woken
/// watcher does, and the watch ends.
final class ScriptedChangeSource: ChangeSource, @unchecked Sendable {
  /// Events told at `at` seconds after the clock's start.
  struct Told {
    var at: Double
    var events: [WatchEvent]
    /// Done just before the events are told: the edit they report.
    var before: (() -> Void)?

    init(at: Double, events: [WatchEvent], before: (() -> Void)? = nil) {
      self.at = at
      self.events = events
      self.before = before
    }
  }

  let clock = FakeClock()
  private let start: UInt64
  private var script: [Told]
  /// What each `drain` after a run returns, in order (then nothing).
  private var drains: [[WatchEvent]]
  private var woken = false
  /// The timeouts each `next` was asked with (nil: none), in order.
  private(set) var timeouts: [Double?] = []

  init(_ script: [Told], drains: [[WatchEvent]] = []) {
    start = clock.now
    self.script = script
    self.drains = drains
  }

  func next(timeout: Double?) -> [WatchEvent]? {
    timeouts.append(timeout)
    guard !woken else { return nil }
    guard let first = script.first else {
      guard let timeout else { return nil }
      clock.now += UInt64(timeout * 1e9)
      return []
    }
    let due = start + UInt64(first.at * 1e9)
    if let timeout, due > clock.now + UInt64(timeout * 1e9) {
      clock.now += UInt64(timeout * 1e9)
      return []
    }
    clock.now = max(clock.now, due)
    script.removeFirst()
    first.before?()
    return first.events
  }

  func drain() -> [WatchEvent] { drains.isEmpty ? [] : drains.removeFirst() }

  func wake() { woken = true }
}
