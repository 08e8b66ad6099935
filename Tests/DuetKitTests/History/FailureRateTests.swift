import Testing
@testable import DuetRun
@testable import DuetHistory

/// The 95% Wilson score interval against published values (Newcombe 1998,
/// table I, method 3; and the issue's own example, 10 of 30).
@Suite("FailureRate: the failure rate of repeated runs and its 95% interval")
struct FailureRateTests {
  private func close(_ value: Double, _ expected: Double) -> Bool { abs(value - expected) < 0.00005 }

  @Test func tenOfThirtyIsNineteenToFiftyOnePercent() {
    let rate = FailureRate(failed: 10, runs: 30)
    #expect(close(rate.low, 0.1923))
    #expect(close(rate.high, 0.5122))
    #expect(rate.percentText == "33%, 95% interval 19%–51%")
  }

  @Test func newcombesTableOne() {
    // 81 of 263: 0.2553–0.3662; 15 of 148: 0.0624–0.1605; 1 of 29: 0.0061–0.1718.
    let cases: [(Int, Int, Double, Double)] = [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (1, 29, 0.0061, 0.1718)]
    for (failed, runs, low, high) in cases {
      let rate = FailureRate(failed: failed, runs: runs)
      #expect(abs(rate.low - low) < 0.00006, "\(failed) of \(runs): low \(rate.low)")
      #expect(abs(rate.high - high) < 0.00006, "\(failed) of \(runs): high \(rate.high)")
    }
  }

  @Test func noFailureStillLeavesRoomAbove() {
    // 0 of 20 (Newcombe: 0–0.1611); 0 of 10: 0–0.2775.
    #expect(FailureRate(failed: 0, runs: 20).low == 0)
    #expect(close(FailureRate(failed: 0, runs: 20).high, 0.1611))
    #expect(close(FailureRate(failed: 0, runs: 10).high, 0.2775))
  }

  @Test func everyRunFailedEndsAtOne() {
    let rate = FailureRate(failed: 10, runs: 10)
    #expect(rate.high == 1)
    #expect(close(rate.low, 0.7225))
  }

  @Test func noRunsIsTheWholeRangeAndCountsAreBounded() {
    let none = FailureRate(failed: 0, runs: 0)
    #expect(none.low == 0 && none.high == 1 && none.rate == 0)
    let bounded = FailureRate(failed: 5, runs: 3)
    #expect(bounded.failed == 3)
  }
}
