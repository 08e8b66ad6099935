import DuetModel
import DuetSupport
import DuetHistory

/// A lane's verdict: its part in a run, every attempt and the outcome over all of
/// them. The loop settles it, the reports, JUnit, `--json` and the history row read it.
package struct LaneVerdict: Sendable {
  /// The start of the reason of a lane `--skip` or `DUET_SKIP` left out.
  static let skippedByRequest = "by request"

  package var index: Int
  package var name: String
  package var outcome: LaneOutcome
  /// For `skipped` and `cancelled`: `needs kotlin`, `needs kotlinc, not found`.
  package var reason: String?
  /// For a lane skipped because its `requires:` programs are not on `PATH`: those programs.
  package var missingPrograms: [String]
  package var attempts: [LaneAttempt]
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
  var isSkippedByRequest: Bool { outcome == .skipped && reason?.hasPrefix(LaneVerdict.skippedByRequest) == true }

  package init(index: Int, name: String, outcome: LaneOutcome, reason: String? = nil, missingPrograms: [String] = [], attempts: [LaneAttempt] = []) {
    self.index = index
    self.name = name
    self.outcome = outcome
    self.reason = reason
    self.missingPrograms = missingPrograms
    self.attempts = attempts
  }

  /// Wall time over all attempts.
  package var duration: Double { attempts.reduce(0) { $0 + $1.duration } }
  package var last: LaneAttempt? { attempts.last }
}
