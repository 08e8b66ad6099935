import Foundation
import Testing
@testable import DuetSupport

/// Issue 54, item 6: work on other threads hands its results back by value
/// (`JoinedThread`, `parallelMap`), and a stop is requested and heard through
/// one type (`StopRequest`), where each place kept a locked box of its own.
@Suite("Values handed between threads")
struct ThreadsTests {
  @Test func aJoinedThreadHandsItsResultBack() {
    let thread = JoinedThread { (1...1_000).reduce(0, +) }
    #expect(thread.join() == 500_500)
    #expect(thread.join() == 500_500)
  }

  @Test func parallelMapKeepsTheOrderOnEveryWidth() {
    let items = Array(0..<1_001)
    for width in [1, 2, 3, 8, 2_000] {
      #expect(items.parallelMap(width: width) { $0 * 2 } == items.map { $0 * 2 }, "width \(width)")
    }
    #expect([Int]().parallelMap { $0 } == [])
  }

  @Test func parallelMapRunsOnThreadsOfItsOwn() {
    let caller = "\(pthread_self())"
    let threads = Array(0..<8).parallelMap(width: 4) { _ in "\(pthread_self())" }
    #expect(!threads.contains(caller), "\(threads) ran on the caller's thread \(caller)")
  }

  final class Heard: @unchecked Sendable {
    var count = 0
  }

  @Test func aStopIsHeardByWhoListensAndAtOnceWhenMadeBefore() {
    let stop = StopRequest()
    let early = Heard(), scoped = Heard(), late = Heard()
    stop.listen { early.count += 1 }
    #expect(!stop.isRequested)
    stop.listening({ scoped.count += 1 }) {
      #expect(stop.request(), "heard")
    }
    stop.request()
    #expect(stop.isRequested)
    #expect(early.count == 2)
    #expect(scoped.count == 1, "heard after it stopped listening")
    stop.listen { late.count += 1 }
    #expect(late.count == 1, "a stop made before listening is heard at once")
  }

  @Test func aRequestNobodyListensToIsNotHeard() {
    let stop = StopRequest()
    #expect(!stop.request())
    #expect(stop.listening({}) { stop.request() })
    #expect(!stop.request())
  }
}
