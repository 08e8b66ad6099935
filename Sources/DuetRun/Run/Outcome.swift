import DuetModel
import DuetTestReports
import DuetProcess
import DuetSupport
import DuetHistory

/// The start, end and tail of one attempt.
package struct AttemptResult: Sendable {
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

/// One lane's part in a run: every attempt and the outcome over all of them.
package struct LaneRecord: Sendable {
  /// The start of the reason of a lane `--skip` or `DUET_SKIP` left out.
  static let skippedByRequest = "by request"

  package var index: Int
  package var name: String
  package var outcome: LaneOutcome
  /// For `skipped` and `cancelled`: `needs kotlin`, `needs kotlinc, not found`.
  package var reason: String?
  /// For a lane skipped because its `requires:` programs are not on `PATH`: those programs.
  package var missingPrograms: [String]
  package var attempts: [AttemptResult]
  /// For a cached lane: how many output files the cache wrote back.
  package var restoredFiles = 0
  /// For a cached lane: the log of the pass that earned its entry, brought back
  /// into this run's log folder (relative to the tree root).
  var restoredLog: String?

  /// Settled by `--upstream`: a need that ran in an earlier CI job did not pass
  /// there, or has no verdict. A pipeline is green only when every lane it
  /// holds ran (or was cached) and passed, so this fails the job.
  package var blockedUpstream = false

  /// Whether `--skip` or `DUET_SKIP` left the lane out.
  var isSkippedByRequest: Bool { outcome == .skipped && reason?.hasPrefix(LaneRecord.skippedByRequest) == true }

  package init(index: Int, name: String, outcome: LaneOutcome, reason: String? = nil, missingPrograms: [String] = [], attempts: [AttemptResult] = []) {
    self.index = index
    self.name = name
    self.outcome = outcome
    self.reason = reason
    self.missingPrograms = missingPrograms
    self.attempts = attempts
  }

  /// Wall time over all attempts.
  package var duration: Double { attempts.reduce(0) { $0 + $1.duration } }
  package var last: AttemptResult? { attempts.last }
}
