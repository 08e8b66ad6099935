import DuetModel
import DuetSupport

/// Why this checkout misses a pass that another checkout or machine recorded
/// for the same commit (issue 56): the nearest such run and every part of the
/// fingerprint that differs from it. `--dry-run` says it beside the reason it
/// gives against this checkout's own last run; `duet explain` says all of it.
package struct CacheMiss: Sendable, Equatable {
  package var against: OtherCheckoutRun
  var differences: [String]
  /// That run is also the lane's newest recorded verdict, so the reason the
  /// cache gives against it says less than this: `--dry-run` says this alone.
  package var isLastVerdict = false

  package init(against: OtherCheckoutRun, differences: [String]) {
    self.against = against
    self.differences = differences
  }

  /// The nearest pass among `runs` to these parts: fewest differences, then
  /// newest; nil when no run there passed, or one passed with these very parts
  /// (then it is no miss).
  package static func nearest(_ parts: FingerprintParts, among runs: [OtherCheckoutRun]) -> CacheMiss? {
    let passes = runs.filter { $0.outcome == .pass || $0.outcome == .flaky }
    guard !passes.contains(where: { $0.fingerprint == parts.fingerprint }) else { return nil }
    let compared = passes.map { CacheMiss(against: $0, differences: parts.differences(from: $0.parts)) }
    return compared.filter { !$0.differences.isEmpty }.min { a, b in
      a.differences.count != b.differences.count ? a.differences.count < b.differences.count : a.against.started > b.against.started
    }
  }

  /// `the CI pass (run 20261206-…, ci linux-1)`.
  var named: String {
    "\(against.origin.text.hasPrefix("ci ") ? "the CI pass" : "the pass") (run \(against.logID), \(against.origin))"
  }

  /// `misses the CI pass (run …, ci linux-1): src/a.txt differs; FLAVOR differs`,
  /// at most `limit` differences, then how many more (`duet explain LANE`).
  package func words(lane: String, limit: Int = 3) -> String {
    var shown = Array(differences.prefix(limit))
    if differences.count > limit { shown.append("\(differences.count - limit) more (duet explain \(lane))") }
    return "misses \(named): \(shown.joined(separator: "; "))"
  }
}
