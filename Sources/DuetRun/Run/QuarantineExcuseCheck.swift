import DuetModel
import DuetTestReports
import DuetSupport
import DuetHistory

/// Whether the quarantine excuses one failed attempt, by DESIGN §14's rule: a
/// test entry excuses a failure only when nothing but quarantined cases failed.
/// A timeout, a signal, an exit over 125 (the shell's word for a signal or a
/// crash), a report cut short, a `reports:` glob that matched no report of
/// the attempt, a missing output, or a runner's own build-failure line in the
/// log (`BuildFailureLines`) is never excused by test entries, and the note
/// says which. A whole-lane entry still excuses anything. Pure.
struct QuarantineExcuseCheck: Sendable {
  /// What the attempt left to judge it by.
  struct Attempt: Sendable {
    var outcome: AttemptOutcome
    var exitCode: Int32?
    var signal: Int32?
    var tests: JUnitReading
    /// The lane's `reports:` globs: one that matched no report this attempt
    /// wrote is a missing report (found only when test entries would excuse).
    var reportGlobs: [String] = []
    var missingOutputs = false
    /// The first line of the log that says the build (not a test) failed, and why.
    var buildFailure: (why: String, line: String)?

    init(outcome: AttemptOutcome, exitCode: Int32?, signal: Int32?, tests: JUnitReading, reportGlobs: [String] = [],
                 missingOutputs: Bool = false, buildFailure: (why: String, line: String)? = nil) {
      self.outcome = outcome
      self.exitCode = exitCode
      self.signal = signal
      self.tests = tests
      self.reportGlobs = reportGlobs
      self.missingOutputs = missingOutputs
      self.buildFailure = buildFailure
    }
  }

  /// The excuse, or why quarantined tests could not give one (nil when the
  /// quarantine had nothing to say of this attempt: no entry, or a failed case
  /// no entry names).
  enum Verdict: Sendable, Equatable {
    case excused(QuarantineExcuse)
    /// Quarantined tests failed, and so did something they cannot account for: `quarantine excuses nothing: exited 137 (…)`.
    case refused(String)
  }

  /// The verdict on a failed or timed-out attempt of `lane`; nil for any other.
  static func judge(_ attempt: Attempt, lane: String, rule: QuarantineRule) -> Verdict? {
    guard attempt.outcome == .fail || attempt.outcome == .timeout,
          let excuse = rule.excuse(lane: lane, cases: attempt.tests.cases) else { return nil }
    guard case .tests = excuse else { return .excused(excuse) }
    if let why = blocker(attempt) {
      return .refused("quarantine excuses nothing: \(why)")
    }
    return .excused(excuse)
  }

  /// What besides quarantined cases failed the attempt, in words; nil when nothing did.
  static func blocker(_ attempt: Attempt) -> String? {
    if attempt.outcome == .timeout { return "timed out" }
    if let signal = attempt.signal { return "killed by signal \(signal)" }
    if let code = attempt.exitCode, code > 125 { return "exited \(code) (over 125: a signal or a crash, not a test failure)" }
    if attempt.exitCode == nil { return "no exit status" }
    if !attempt.tests.warnings.isEmpty { return "a report was not read whole" }
    if let glob = unmatched(attempt.reportGlobs, by: attempt.tests.cases).first {
      return ("no report matched '\(glob)' (a module that did not build?)" as TerminalLine).text
    }
    if attempt.missingOutputs { return "a declared output is missing" }
    if let failure = attempt.buildFailure { return ("\(failure.why) (\(failure.line))" as TerminalLine).text }
    return nil
  }

  /// The `reports:` globs that no case of the attempt was read from.
  static func unmatched(_ globs: [String], by cases: [TestCaseResult]) -> [String] {
    let reports = Set(cases.map(\.report))
    return globs.filter { glob in
      let pattern = Glob(glob)
      return !reports.contains { pattern.matches($0) }
    }
  }
}
