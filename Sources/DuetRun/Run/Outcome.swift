import DuetModel
import DuetTestReports
import DuetProcess
import DuetSupport

/// How one attempt of a lane ended.
public enum AttemptOutcome: String, Sendable, Codable {
  case pass, fail, timeout
  /// Stopped by Ctrl-C or SIGTERM to duet.
  case interrupted
  /// duet could not start it: the machine had no file descriptor, process or
  /// memory to give. Not the lane's failure: no flaky evidence, no retry.
  case error
}

/// How a lane ended, over all its attempts: the word reports, JUnit and history use.
public enum LaneOutcome: String, Sendable, Codable, CaseIterable {
  case pass, fail, timeout, skipped, cancelled, flaky, cached, interrupted
  /// Not touched by the change `--since`/`--changed` names: not run, not a failure.
  case unaffected
  /// duet could not start it (no file descriptor, process or memory): the
  /// machine's failure, not the lane's. The run ends `ERROR`, exit 3.
  case error

  /// Whether dependents may run after it.
  public var letsDependentsRun: Bool { self == .pass || self == .flaky || self == .cached || self == .unaffected }

  /// Whether it makes the run fail.
  public var failsRun: Bool { self == .fail || self == .timeout }
}

/// The start, end and tail of one attempt.
public struct AttemptResult: Sendable {
  public var attempt: Int
  public var outcome: AttemptOutcome
  /// The exit status of a process that exited; nil when a signal ended it.
  public var exitCode: Int32?
  /// The signal that ended the process, if one did.
  public var signal: Int32?
  public var started: Double
  public var duration: Double
  /// Relative to the tree root; nil when the lane printed nothing.
  public var logPath: String?
  public var tail: LogTail
  /// Why an attempt that did not start failed (`cannot start /bin/sh: ...`).
  public var note: String?
  /// The test cases of the lane's `reports:` written during this attempt, and
  /// what could not be read of them (one warning per report).
  public var tests = JUnitReading()
  /// A failure the quarantine let pass: it is a pass for this run only, never
  /// one a cache or the history serves later (the quarantine may have ended by then).
  public var excused = false

  public init(attempt: Int, outcome: AttemptOutcome, exitCode: Int32?, signal: Int32? = nil, started: Double, duration: Double, logPath: String?, tail: LogTail, note: String? = nil) {
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
public struct LaneRecord: Sendable {
  /// The start of the reason of a lane `--skip` or `DUET_SKIP` left out.
  public static let skippedByRequest = "by request"

  public var index: Int
  public var name: String
  public var outcome: LaneOutcome
  /// For `skipped` and `cancelled`: `needs kotlin`, `needs kotlinc, not found`.
  public var reason: String?
  /// For a lane skipped because its `requires:` programs are not on `PATH`: those programs.
  public var missingPrograms: [String]
  public var attempts: [AttemptResult]
  /// For a cached lane: how many output files the cache wrote back.
  public var restoredFiles = 0
  /// For a cached lane: the log of the pass that earned its entry, brought back
  /// into this run's log folder (relative to the tree root).
  public var restoredLog: String?

  /// Whether `--skip` or `DUET_SKIP` left the lane out.
  public var isSkippedByRequest: Bool { outcome == .skipped && reason?.hasPrefix(LaneRecord.skippedByRequest) == true }

  public init(index: Int, name: String, outcome: LaneOutcome, reason: String? = nil, missingPrograms: [String] = [], attempts: [AttemptResult] = []) {
    self.index = index
    self.name = name
    self.outcome = outcome
    self.reason = reason
    self.missingPrograms = missingPrograms
    self.attempts = attempts
  }

  /// Wall time over all attempts.
  public var duration: Double { attempts.reduce(0) { $0 + $1.duration } }
  public var last: AttemptResult? { attempts.last }
}
