import DuetModel
import DuetSupport

/// One verify run as the history store keeps it.
package struct RunRow: Sendable, Equatable {
  /// A UUID, unique across machines, so merged stores never collide.
  package var id: String
  /// The run id of its log folder (`.duet/logs/<logID>`).
  package var logID: String
  package var started: Double
  package var ended: Double
  var command: String
  var root: String
  package var gitCommit: String?
  var host: String
  package var outcome: RunOutcome
  package var jobs: Int
  var duetVersion: String
  /// Where the run came from, as reports name it: `ci JOB` on a CI runner,
  /// else `host NAME`; nil for a run recorded before schema 6.
  package var origin: String?

  package init(id: String, logID: String, started: Double, ended: Double, command: String, root: String, gitCommit: String?, host: String, outcome: RunOutcome, jobs: Int, duetVersion: String,
               origin: String? = nil) {
    self.id = id
    self.logID = logID
    self.started = started
    self.ended = ended
    self.command = command
    self.root = root
    self.gitCommit = gitCommit
    self.host = host
    self.outcome = outcome
    self.jobs = jobs
    self.duetVersion = duetVersion
    self.origin = origin
  }
}

/// One attempt of one lane in one run. A lane settled without running (skipped,
/// cancelled, cached) has one row with attempt 0 and no attempt outcome.
package struct StepRow: Sendable, Equatable {
  package var runID: String
  package var lane: String
  package var attempt: Int
  package var started: Double
  package var duration: Double
  /// nil for a lane that did not run.
  package var attemptOutcome: AttemptOutcome?
  /// The lane's outcome over all attempts; set on its last row only.
  package var laneOutcome: LaneOutcome?
  package var exitCode: Int?
  package var fingerprint: String?
  package var logPath: String?
  /// The conditions the step was judged under (`PassConditions.serialized`), on the lane's last row.
  var judged: String?
  /// The quarantine excused this attempt: `attemptOutcome` is the failure it
  /// was (`fail`, `timeout`), the lane passed on it this run only.
  package var excused = false

  package init(runID: String, lane: String, attempt: Int, started: Double, duration: Double, attemptOutcome: AttemptOutcome?, laneOutcome: LaneOutcome?, exitCode: Int?, fingerprint: String?, logPath: String?, judged: String? = nil) {
    self.runID = runID
    self.lane = lane
    self.attempt = attempt
    self.started = started
    self.duration = duration
    self.attemptOutcome = attemptOutcome
    self.laneOutcome = laneOutcome
    self.exitCode = exitCode
    self.fingerprint = fingerprint
    self.logPath = logPath
    self.judged = judged
  }
}
