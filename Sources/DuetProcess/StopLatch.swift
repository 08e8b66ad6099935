import CProcessShim

/// The signal self-pipe: once a signal asks duet to stop, its read end stays
/// readable for good, and every event loop polls it. A loop started after the
/// signal (a git query while a run is being prepared) sees it as well as one
/// that was waiting, so no child of a stopping duet runs on. It is process-wide
/// because a signal is: the handler that trips it can reach nothing else.
package enum StopLatch {
  /// The read end, made on first use; -1 when it could not be made.
  static var descriptor: Int32 { duet_stop_latch_fd() }

  /// Trips the latch for `signal`. Call `prepare()` first at start-up.
  package static func trip(_ signal: Int32) { duet_stop_latch_trip(signal) }

  /// Makes the pipe now, before any signal can arrive.
  package static func prepare() { _ = descriptor }

  /// The first signal that tripped it, or nil.
  static var signal: Int32? {
    let value = duet_stop_latch_signal()
    return value == 0 ? nil : value
  }

  /// Said by an event loop that saw the latch tripped: the command's thread is
  /// alive and stopping its children, so the signal thread may give it time.
  static func heard() { duet_stop_latch_heard() }

  /// Whether an event loop has heard the latch since it was tripped.
  package static var wasHeard: Bool { duet_stop_latch_was_heard() != 0 }

  /// Children duet started and has not reaped yet, in every loop of this process.
  package static var childrenRunning: Int { Int(duet_children_running()) }
}
