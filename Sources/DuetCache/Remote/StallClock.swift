import DuetSupport

/// The remote cache's share of a run's waiting: each second (or more) in
/// which a call's transfers moved under `rate` bytes a second and none ended
/// counts, summed over every call of the run. Once the sum reaches `budget`
/// every call ends at once, so a server that accepts and never answers, or one
/// that trickles, stalls a whole run about `budget`, not a timeout per request.
/// (libcurl's per-transfer speed limit sees one connection; a trickle spread
/// over 16 connections passes it.)
final class StallClock: Sendable {
  /// Where a call's current second began: its time, bytes moved and transfers ended then.
  struct Watch {
    var since: ContinuousClock.Instant
    var moved: Int
    var finished: Int
  }

  let budget: Duration
  let rate: Int
  private let spent = Locked(Duration.zero)

  init(budget: Duration, rate: Int) {
    self.budget = budget
    self.rate = rate
  }

  /// A call's first second starts now.
  func watch() -> Watch { Watch(since: .now, moved: 0, finished: 0) }

  /// Counts the second just past if it was slow; true when the budget is spent
  /// (a call that starts after that ends before it sends anything).
  func tick(_ watch: inout Watch, moved: Int, finished: Int) -> Bool {
    let now = ContinuousClock.now
    let elapsed = now - watch.since
    guard elapsed >= .seconds(1) else { return spent.withLock { $0 } >= budget }
    let (seconds, attoseconds) = elapsed.components
    let expected = Double(rate) * (Double(seconds) + Double(attoseconds) / 1e18)
    let slow = finished == watch.finished && Double(moved - watch.moved) < expected
    watch = Watch(since: now, moved: moved, finished: finished)
    return spent.withLock { total in
      if slow { total += elapsed }
      return total >= budget
    }
  }
}
