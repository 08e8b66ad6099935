/// A run's one word, as `RunVerdict.outcome` decides it and the history's
/// `runs` row keeps it (as `AttemptOutcome` is an attempt's, `LaneOutcome` a lane's).
package enum RunOutcome: String, Sendable, Codable {
  case pass, fail, interrupted
  /// No lane failed, but duet could not start one (no descriptor, process or memory).
  case error
}
