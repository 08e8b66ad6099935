import Foundation
import DuetOutput
import DuetSupport

/// `duet history --json`: the store and its recent runs, newest first.
public struct HistoryListJSON: Codable, Sendable, Equatable {
  /// One run as a row of the list.
  public struct Run: Codable, Sendable, Equatable {
    public var id: String
    public var logId: String
    /// ISO 8601, UTC.
    public var startedAt: String
    public var durationSeconds: Double
    public var outcome: VerifyOutcome.Verdict
    @Nullable public var gitCommit: String?
    public var host: String
    public var command: String
    public var jobs: Int
    public var duetVersion: String
    /// The lanes that failed or timed out in it.
    public var failed: [String]
  }

  public var store: String
  public var runs: [Run]

  /// `failedLanes` gives, per run id, the lanes that failed in it.
  public init(store: String, runs: [RunRow], failedLanes: [String: [String]]) {
    self.store = store
    self.runs = runs.map { run in
      Run(id: run.id, logId: run.logID, startedAt: ISOTime.text(run.started), durationSeconds: run.ended - run.started,
          outcome: run.outcome, gitCommit: run.gitCommit, host: run.host, command: run.command, jobs: run.jobs,
          duetVersion: run.duetVersion, failed: failedLanes[run.id] ?? [])
    }
  }
}
