/// A verify's one word, as `VerifyOutcome.verdict` decides it and the
/// history's `runs` row keeps it.
package enum RunOutcome: String, Sendable, Codable {
  case pass, fail, interrupted
  /// No lane failed, but duet could not start one (no descriptor, process or memory).
  case error
}
