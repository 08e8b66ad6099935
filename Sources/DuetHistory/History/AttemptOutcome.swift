/// How one attempt of a lane ended (the run decides it; the history keeps it).
package enum AttemptOutcome: String, Sendable, Codable {
  case pass, fail, timeout
  /// Stopped by Ctrl-C or SIGTERM to duet.
  case interrupted
  /// duet could not start it: the machine had no file descriptor, process or
  /// memory to give. Not the lane's failure: no flaky evidence, no retry.
  case error
}
