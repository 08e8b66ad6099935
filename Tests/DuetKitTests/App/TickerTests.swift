import Foundation
import Testing
@testable import DuetApp

/// The progress clock's ticks: what redraws the status line.
@Suite("Ticker")
struct TickerTests {
  /// Issue 52, item 10: `fire` (what SIGWINCH calls) ticks at once, not after
  /// the interval: with an hour's interval, a tick comes only from `fire`.
  @Test func fireTicksAtOnce() throws {
    let ticked = DispatchSemaphore(value: 0)
    let ticker = try #require(Ticker(interval: 3600) { ticked.signal() })
    defer { ticker.cancel() }
    ticker.fire()
    #expect(ticked.wait(timeout: .now() + 30) == .success)
    ticker.fire()
    #expect(ticked.wait(timeout: .now() + 30) == .success)
  }
}
