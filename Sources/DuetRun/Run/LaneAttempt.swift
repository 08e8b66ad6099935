import DuetModel
import DuetTestReports
import DuetProcess
import DuetSupport
import DuetHistory

/// A lane's attempt: its start, end and tail, as the loop ends it.
package struct LaneAttempt: Sendable {
  package var attempt: Int
  package var outcome: AttemptOutcome
  /// The exit status of a process that exited; nil when a signal ended it.
  package var exitCode: Int32?
  /// The signal that ended the process, if one did.
  package var signal: Int32?
  package var started: Double
  package var duration: Double
  /// Relative to the tree root; nil when the lane printed nothing.
  package var logPath: String?
  package var tail: LogTail
  /// Why an attempt that did not start failed (`cannot start /bin/sh: ...`).
  package var note: String?
  /// The test cases of the lane's `reports:` written during this attempt, and
  /// what could not be read of them (one warning per report).
  package var tests = JUnitReading()
  /// A failure the quarantine let pass: it is a pass for this run only, never
  /// one a cache or the history serves later (the quarantine may have ended by then).
  package var excused = false
  /// When `excused`: the lane's quarantine entries in date that day, so the
  /// JUnit report can say which entry let each failed case pass, and until when.
  package var quarantinedBy: [QuarantineEntry] = []
  /// When `excused`: how the attempt really ended (`fail` or `timeout`), as the
  /// history records it, so `stats` counts excused runs apart from passes.
  package var excusedFailure: AttemptOutcome?
  /// When test entries excused it: the failed cases they accounted for (`suite.name`).
  package var quarantinedFailures: [String] = []

  init(attempt: Int, outcome: AttemptOutcome, exitCode: Int32?, signal: Int32? = nil, started: Double, duration: Double, logPath: String?, tail: LogTail, note: String? = nil) {
    self.attempt = attempt
    self.outcome = outcome
    self.exitCode = exitCode
    self.signal = signal
    self.started = started
    self.duration = duration
    self.logPath = logPath
    self.tail = tail
    self.note = note
  }
}
