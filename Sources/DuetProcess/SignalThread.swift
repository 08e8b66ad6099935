import CProcessShim

/// The thread duet's stop signals are handled on, made at start-up (see
/// `duet_signal_thread_start`): nothing at signal time needs a thread to be
/// made, so a machine out of threads still stops duet on SIGINT and SIGTERM.
package enum SignalThread {
  /// Takes `signals` over; `callback` runs on the thread, one signal at a
  /// time, with `context` (a C callback carries nothing else). 0, or the
  /// error that kept the thread from being made.
  package static func start(_ signals: [Int32], context: UnsafeMutableRawPointer,
                            _ callback: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void) -> Int32 {
    signals.withUnsafeBufferPointer { duet_signal_thread_start($0.baseAddress, Int32($0.count), callback, context) }
  }

  /// Keeps `signal` as the first that no command took: the process ends with it (128 + the signal).
  package static func noteUnhandled(_ signal: Int32) { duet_signal_unhandled(signal) }

  /// The first signal no command took, or nil.
  package static var firstUnhandled: Int32? {
    let value = duet_signal_unhandled_first()
    return value == 0 ? nil : value
  }

  /// Sends `signal` to every process group duet's children lead and that has
  /// not been reaped: the last resort when no event loop is left to stop them.
  @discardableResult
  package static func signalLiveGroups(_ signal: Int32) -> Int { Int(duet_groups_kill(signal)) }
}
