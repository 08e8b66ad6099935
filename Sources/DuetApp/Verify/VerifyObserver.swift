import DuetRun

/// How a verify run talks while it goes: the executable prints, a test collects.
/// `started`, `event`, `line` and `ended` come in order on one queue of the
/// run's, never on the thread that runs the lanes, so an observer that blocks
/// holds only itself; the others come from the calling thread.
struct VerifyObserver: Sendable {
  /// A line about the run as a whole (the derived-lanes notice, the change or
  /// shard selected): standard output for text, standard error beside `--json`.
  var notice: @Sendable (String) -> Void
  /// Something went wrong that does not change the verdict (`duet verify: warning: ...`).
  var warning: @Sendable (String) -> Void
  /// A report that could not be written and so fails the run (`duet verify: error: ...`).
  var error: @Sendable (String) -> Void
  /// The lanes are about to start: how many were selected.
  var started: @Sendable (_ total: Int) -> Void
  var event: @Sendable (RunEvent) -> Void
  /// The last lane has ended (before the reports are written).
  var ended: @Sendable () -> Void
  /// A line of a `--stream` lane's output, with the lane's name.
  var line: @Sendable (_ lane: String, _ text: String) -> Void

  init(notice: @escaping @Sendable (String) -> Void = { _ in },
              warning: @escaping @Sendable (String) -> Void = { _ in },
              error: @escaping @Sendable (String) -> Void = { _ in },
              started: @escaping @Sendable (Int) -> Void = { _ in },
              event: @escaping @Sendable (RunEvent) -> Void = { _ in },
              ended: @escaping @Sendable () -> Void = {},
              line: @escaping @Sendable (String, String) -> Void = { _, _ in }) {
    self.notice = notice
    self.warning = warning
    self.error = error
    self.started = started
    self.event = event
    self.ended = ended
    self.line = line
  }

  /// Says nothing.
  static let silent = VerifyObserver()
}
