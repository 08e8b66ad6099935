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
  package var command: String
  package var root: String
  package var gitCommit: String?
  package var host: String
  package var outcome: VerifyOutcome.Verdict
  package var jobs: Int
  package var duetVersion: String
  /// Where the run came from, as reports name it: `ci JOB` on a CI runner,
  /// else `host NAME`; nil for a run recorded before schema 6.
  package var origin: String?

  package init(id: String, logID: String, started: Double, ended: Double, command: String, root: String, gitCommit: String?, host: String, outcome: VerifyOutcome.Verdict, jobs: Int, duetVersion: String,
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
  package var judged: String?
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

extension RunRow {
  /// The run and its steps as rows, from a finished verify.
  package static func rows(for outcome: VerifyOutcome, plan: VerifyPlan, id: String, started: Double, command: String, gitCommit: String?, host: String, duetVersion: String, fingerprints: [Int: String], judged: [Int: PassConditions] = [:]) -> (RunRow, [StepRow]) {
    let result = outcome.run
    let run = RunRow(
      id: id, logID: plan.runID, started: started, ended: started + result.duration,
      command: command, root: plan.root.path, gitCommit: gitCommit, host: host,
      outcome: outcome.verdict,
      jobs: plan.options.jobs, duetVersion: duetVersion)
    var steps: [StepRow] = []
    for record in result.records {
      // A pass the quarantine excused has no fingerprint in the history, so it never serves a later run.
      let fingerprint = record.attempts.last?.excused == true ? nil : fingerprints[record.index]
      let conditions = judged[record.index].map(\.serialized).flatMap { $0.isEmpty ? nil : $0 }
      if record.attempts.isEmpty {
        steps.append(StepRow(runID: id, lane: record.name, attempt: 0, started: started, duration: 0, attemptOutcome: nil,
                             laneOutcome: record.outcome, exitCode: nil, fingerprint: fingerprint, logPath: record.restoredLog, judged: conditions))
        continue
      }
      for (offset, attempt) in record.attempts.enumerated() {
        let isLast = offset == record.attempts.count - 1
        steps.append(StepRow(runID: id, lane: record.name, attempt: attempt.attempt, started: attempt.started, duration: attempt.duration,
                             attemptOutcome: attempt.outcome, laneOutcome: isLast ? record.outcome : nil,
                             exitCode: attempt.exitCode.map(Int.init), fingerprint: fingerprint, logPath: attempt.logPath,
                             judged: isLast ? conditions : nil))
        // Recorded as the failure it was, so no report counts it a pass.
        if attempt.excused {
          steps[steps.count - 1].attemptOutcome = attempt.excusedFailure ?? .fail
          steps[steps.count - 1].excused = true
        }
      }
    }
    return (run, steps)
  }
}
