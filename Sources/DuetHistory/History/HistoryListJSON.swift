import Foundation
import DuetOutput
import DuetSupport

/// `duet history --json`: the store and its recent runs, newest first.
package struct HistoryListJSON: Codable, Sendable, Equatable {
  /// One run as a row of the list.
  package struct Run: Codable, Sendable, Equatable {
    package var id: String
    package var logId: String
    /// ISO 8601, UTC.
    package var startedAt: String
    package var durationSeconds: Double
    package var outcome: RunVerdict
    @Nullable package var gitCommit: String?
    package var host: String
    package var command: String
    package var jobs: Int
    package var duetVersion: String
    /// The lanes that failed or timed out in it.
    package var failed: [String]
  }

  package var store: String
  package var runs: [Run]

  /// `failedLanes` gives, per run id, the lanes that failed in it.
  package init(store: String, runs: [RunRow], failedLanes: [String: [String]]) {
    self.store = store
    self.runs = runs.map { run in
      Run(id: run.id, logId: run.logID, startedAt: ISOTime.text(run.started), durationSeconds: run.ended - run.started,
          outcome: run.outcome, gitCommit: run.gitCommit, host: run.host, command: run.command, jobs: run.jobs,
          duetVersion: run.duetVersion, failed: failedLanes[run.id] ?? [])
    }
  }
}
