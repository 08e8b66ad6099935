import Foundation

/// How often something failed out of a number of tries, with the 95% Wilson
/// score interval: what the true rate may be, given so few tries. Unlike the
/// plain "failed / runs ± 1.96·σ" it stays inside 0…1 and is not zero wide
/// when nothing (or everything) failed, so "0 of 20 failed" still says "up to 16%".
package struct FailureRate: Sendable, Equatable {
  package var runs: Int
  package var failed: Int
  /// The interval's ends, as fractions from 0 to 1.
  package var low: Double
  package var high: Double

  /// The normal quantile for 95% (two-sided).
  static let z95 = 1.959963984540054

  /// The rate of `failed` out of `runs`; with no runs, the whole of 0…1.
  package init(failed: Int, runs: Int, z: Double = FailureRate.z95) {
    self.runs = max(runs, 0)
    self.failed = min(max(failed, 0), self.runs)
    (low, high) = FailureRate.wilson(failed: self.failed, runs: self.runs, z: z)
  }

  /// The observed fraction (0 with no runs).
  package var rate: Double { runs == 0 ? 0 : Double(failed) / Double(runs) }

  /// The Wilson score interval of `failed` out of `runs` (Wilson 1927).
  static func wilson(failed: Int, runs: Int, z: Double) -> (low: Double, high: Double) {
    guard runs > 0 else { return (0, 1) }
    let n = Double(runs)
    let p = Double(failed) / n
    let z2 = z * z
    let denominator = 1 + z2 / n
    let centre = (p + z2 / (2 * n)) / denominator
    let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
    // The ends are exact at 0 and at all-failed; rounding must not push them past.
    let low = failed == 0 ? 0 : max(0, centre - half)
    let high = failed == runs ? 1 : min(1, centre + half)
    return (low, high)
  }

  /// `33%, 95% interval 19%–51%`: whole percents, as a person reads them.
  package var percentText: String {
    "\(FailureRate.percent(rate)), 95% interval \(FailureRate.percent(low))–\(FailureRate.percent(high))"
  }

  /// A fraction as a whole percent (`0.333` is `33%`).
  static func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded()))%" }
}
