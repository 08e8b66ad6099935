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

  /// Whether it says how the lane's own work went (pass, flaky, cached, fail,
  /// timeout): the verdicts the cache weighs. A skipped, cancelled,
  /// unaffected, interrupted or unstarted lane says nothing of its code.
  var judgesTheLane: Bool {
    switch self {
    case .pass, .flaky, .cached, .fail, .timeout: return true
    case .skipped, .cancelled, .unaffected, .interrupted, .error: return false
    }
  }

  /// `'skipped', 'cancelled'`: the words of `outcomes` as an SQL list, made
  /// from the enum so a query and the decoding that follows it cannot differ.
  static func sqlList(_ outcomes: [LaneOutcome]) -> String {
    outcomes.map { "'\($0.rawValue)'" }.joined(separator: ", ")
  }

  /// The words a store holds that say nothing of the lane (`judgesTheLane` false).
  static let sayingNothing = sqlList(allCases.filter { !$0.judgesTheLane })
}
