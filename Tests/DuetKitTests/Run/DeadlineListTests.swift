import Testing
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport

/// The pump's timers, with explicit clocks: what `poll` may sleep and what is due.
@Suite("Deadline list")
struct DeadlineListTests {
  @Test func withNoDeadlinePollSleepsUntilWoken() {
    #expect(DeadlineList().pollTimeout(now: 5) == -1)
  }

  /// The sleep ends at or after the earliest deadline, never before it.
  @Test func pollSleepsUntilTheEarliestRoundedUp() {
    var list = DeadlineList()
    list.add(at: 9_000_000_000) {}
    list.add(at: 2_500_000_001) {}
    #expect(list.pollTimeout(now: 1_000_000_000) == 1501)
    #expect(list.pollTimeout(now: 2_500_000_001) == 0)
    #expect(list.pollTimeout(now: 3_000_000_000) == 0)
  }

  /// Due bodies come out once, earliest first; later ones stay.
  @Test func dueBodiesAreTakenOnceInOrder() {
    let fired = Locked<[Int]>([])
    var list = DeadlineList()
    list.add(at: 30) { fired.withLock { $0.append(3) } }
    list.add(at: 10) { fired.withLock { $0.append(1) } }
    list.add(at: 20) { fired.withLock { $0.append(2) } }
    list.takeDue(now: 25).forEach { $0() }
    #expect(fired.current == [1, 2])
    #expect(list.takeDue(now: 25).isEmpty)
    list.takeDue(now: 30).forEach { $0() }
    #expect(fired.current == [1, 2, 3])
    #expect(list.pollTimeout(now: 30) == -1)
  }

  /// A timeout of centuries is clamped, not overflowed.
  @Test func farDeadlinesAreClamped() {
    let now = DeadlineList.now()
    let far = DeadlineList.at(after: 1e12)
    #expect(far > now)
    #expect(far - now <= UInt64(366 * 24 * 3600) * 1_000_000_000)
  }
}
