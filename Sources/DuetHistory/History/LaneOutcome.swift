/// How a lane ended, over all its attempts: the word reports, JUnit and history use.
package enum LaneOutcome: String, Sendable, Codable, CaseIterable {
  case pass, fail, timeout, skipped, cancelled, flaky, cached, interrupted
  /// Not touched by the change `--since`/`--changed` names: not run, not a failure.
  case unaffected
  /// duet could not start it (no file descriptor, process or memory): the
  /// machine's failure, not the lane's. The run ends `ERROR`, exit 3.
  case error

  /// Whether dependents may run after it.
  package var letsDependentsRun: Bool { self == .pass || self == .flaky || self == .cached || self == .unaffected }

  /// Whether it makes the run fail.
  package var failsRun: Bool { self == .fail || self == .timeout }
}
