/// The flaky lanes of `duet report` and its page, named in words by
/// `duet flaky`'s rule (`FlakyReport`): a lane with both a pass and a failure
/// on one input fingerprint across runs, or one that passed on a retry. Not
/// only the retried ones: a lane with `retries: 0` that flips between runs on
/// the same inputs is as flaky. Pure and unescaped, as `FlakyTestsInWords` is.
package struct FlakyLanesInWords: Sendable, Equatable {
  package struct Lane: Sendable, Equatable {
    package var name: String
    /// `both outcomes on one fingerprint, 3 failure(s) in 40 run(s)`.
    package var why: String
  }

  /// The lanes with flaky evidence in the window, most evidence first; a lane
  /// with none in the last 7 days says it recovered (the window may be old).
  package var lanes: [Lane]

  package init(_ report: FlakyReport) {
    lanes = (report.flaky + report.recovered).map { Lane(name: $0.lane, why: $0.why) }
  }

  /// `2 lanes flaky in the window:` or `1 lane flaky in the window:`; nil when none was.
  package var lead: String? {
    lanes.isEmpty ? nil : lanes.count == 1 ? "1 lane flaky in the window:" : "\(lanes.count) lanes flaky in the window:"
  }

  /// What a window with no flaky lane says.
  package static let noneFlaky = "No lane was flaky in the window (none passed and failed on one input fingerprint, or passed on a retry)."
}
