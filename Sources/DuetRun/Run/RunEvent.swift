import DuetModel
import DuetSupport

/// What the run loop tells the printer as a run goes on, on the loop's thread.
package enum RunEvent: Sendable {
  case started(index: Int, name: String, attempt: Int)
  /// An attempt failed and the lane has retries left; the next attempt starts now.
  case retrying(index: Int, name: String, failed: LaneAttempt)
  case finished(LaneVerdict, finishedCount: Int, total: Int)
}

/// A whole run: a record per selected lane, in manifest order.
package struct RunResult: Sendable {
  package var records: [LaneVerdict]
  var interrupted: Bool
  package var duration: Double

  package init(records: [LaneVerdict], interrupted: Bool, duration: Double) {
    self.records = records
    self.interrupted = interrupted
    self.duration = duration
  }

  /// Failed and timed-out lanes, in manifest order: the lanes the FAIL line names.
  package var failed: [LaneVerdict] { records.filter { $0.outcome.failsRun } }
  /// Lanes duet could not start (no descriptor, process or memory): not failures.
  package var couldNotStart: [LaneVerdict] { records.filter { $0.outcome == .error } }
  /// Lanes a CI job could not run because a need did not pass, or was not run,
  /// in an earlier job (`--upstream`): the job is not green (issue 52).
  var blockedUpstream: [LaneVerdict] { records.filter(\.blockedUpstream) }
  /// The lanes whose ends a report shows in full: failures, then those duet could not start.
  package var unfinished: [LaneVerdict] { records.filter { $0.outcome.failsRun || $0.outcome == .error } }
  package var flaky: [LaneVerdict] { records.filter { $0.outcome == .flaky } }
  var passed: Bool { failed.isEmpty && !interrupted }
}
