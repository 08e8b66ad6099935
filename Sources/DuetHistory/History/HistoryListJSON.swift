import Foundation
import DuetOutput
import DuetSupport

/// `duet history --json`: the store and its recent runs, newest first.
package struct HistoryListJSON: Codable, Sendable, Equatable {
  /// One run as a row of the list.
  struct Run: Codable, Sendable, Equatable {
    var id: String
    var logId: String
    /// ISO 8601, UTC.
    var startedAt: String
    var durationSeconds: Double
    var outcome: RunOutcome
    @Nullable var gitCommit: String?
    var host: String
    /// Where the run came from: `ci JOB` or `host NAME` (null before schema 6).
    @Nullable var origin: String?
    var command: String
    var jobs: Int
    var duetVersion: String
    /// The lanes that failed or timed out in it.
    var failed: [String]
  }

  var store: String
  var runs: [Run]

  /// `failedLanes` gives, per run id, the lanes that failed in it.
  package init(store: String, runs: [RunRow], failedLanes: [String: [String]]) {
    self.store = store
    self.runs = runs.map { run in
      Run(id: run.id, logId: run.logID, startedAt: ISOTime.text(run.started), durationSeconds: run.ended - run.started,
          outcome: run.outcome, gitCommit: run.gitCommit, host: run.host, origin: run.origin, command: run.command, jobs: run.jobs,
          duetVersion: run.duetVersion, failed: failedLanes[run.id] ?? [])
    }
  }
}
