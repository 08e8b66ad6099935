import DuetHistory
import DuetSupport

/// A finished verify as the rows the history store keeps: the run, its steps
/// and its test cases. Made here, where the outcome is, so the store knows
/// nothing of the run loop.
extension RunRow {
  /// The run and its steps as rows, from a finished verify.
  static func rows(for verdict: RunVerdict, plan: VerifyPlan, id: String, started: Double, command: String, gitCommit: String?, host: String, duetVersion: String, fingerprints: [Int: String], judged: [Int: PassConditions] = [:]) -> (RunRow, [StepRow]) {
    let run = RunRow(
      id: id, logID: plan.runID, started: started, ended: started + verdict.duration,
      command: command, root: plan.root.path, gitCommit: gitCommit, host: host,
      outcome: verdict.outcome,
      jobs: plan.options.jobs, duetVersion: duetVersion)
    var steps: [StepRow] = []
    for record in verdict.lanes {
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

extension TestCaseRow {
  /// Every test case the run's attempts read, in lane, attempt and report order.
  static func rows(for verdict: RunVerdict, id: String) -> [TestCaseRow] {
    verdict.lanes.flatMap { record in
      record.attempts.flatMap { attempt in
        numbered(attempt.tests.cases).map { test, ordinal in
          TestCaseRow(runID: id, lane: record.name, attempt: attempt.attempt, suite: test.suite, name: test.name,
                      outcome: test.outcome, duration: test.duration, message: test.message, report: test.report, ordinal: ordinal)
        }
      }
    }
  }

  /// What the run's attempts could not read of their reports, one line each, naming the lane and attempt.
  static func warnings(for verdict: RunVerdict) -> [String] {
    verdict.lanes.flatMap { record in
      record.attempts.flatMap { attempt in
        // A report's path and a test's name come from the tree: one line, nothing a terminal acts on.
        attempt.tests.warnings.map { ("lane '\(record.name)' attempt \(attempt.attempt): report \($0)" as TerminalLine).text }
      }
    }
  }
}
