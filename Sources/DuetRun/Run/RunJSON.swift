import Foundation
import DuetModel
import DuetOutput
import DuetSupport

/// The run as JSON for scripts (`duet verify --json`): a value that `ReportJSON`
/// prints with `schemaVersion` 1, its properties named as the keys are.
public struct RunJSON: Codable, Sendable, Equatable {
  /// One attempt of a lane; `exitCode` and `signal` are null when it did not end that way.
  public struct Attempt: Codable, Sendable, Equatable {
    public var attempt: Int
    public var outcome: AttemptOutcome
    @Nullable public var exitCode: Int?
    @Nullable public var signal: Int?
    /// ISO 8601 with offset (`ISOTime`), as every report prints a time.
    public var startedAt: String
    public var durationSeconds: Double
    @Nullable public var logPath: String?
  }

  /// One lane: its outcome, its attempts, and what the cache made of it.
  public struct Lane: Codable, Sendable, Equatable {
    public var name: String
    public var outcome: LaneOutcome
    public var durationSeconds: Double
    public var attempts: [Attempt]
    @Nullable public var reason: String?
    @Nullable public var fingerprint: String?
    @Nullable public var cache: String?
  }

  /// Nil for a run that started nothing (an empty shard).
  @Nullable public var runId: String?
  public var root: String
  public var outcome: VerifyOutcome.Verdict
  public var summary: String
  /// Lanes per outcome, keyed by the outcome's word.
  public var counts: [String: Int]
  public var changedTrackedFiles: [String]
  public var reportErrors: [String]
  public var durationSeconds: Double
  public var failed: [String]
  /// Lanes duet could not start (outcome `error`): the machine's failure.
  public var couldNotStart: [String]
  public var flaky: [String]
  public var lanes: [Lane]

  /// `runID` is nil for a run that started nothing (an empty shard).
  public init(_ outcome: VerifyOutcome, runID: String?, root: URL, fingerprints: [Int: String] = [:], decisions: [Int: CacheCheck.Decision] = [:]) {
    let result = outcome.run
    runId = runID
    self.root = root.path
    self.outcome = outcome.verdict
    summary = outcome.lastLine
    counts = Dictionary(uniqueKeysWithValues: outcome.counts.map { ($0.key.rawValue, $0.value) })
    changedTrackedFiles = outcome.changedTrackedFiles
    reportErrors = outcome.reportErrors
    durationSeconds = result.duration
    failed = result.failed.map(\.name)
    couldNotStart = result.couldNotStart.map(\.name)
    flaky = result.flaky.map(\.name)
    lanes = result.records.map { record in
      Lane(name: record.name, outcome: record.outcome, durationSeconds: record.duration,
           attempts: record.attempts.map(Attempt.init), reason: record.reason,
           fingerprint: fingerprints[record.index], cache: decisions[record.index]?.text)
    }
  }
}

extension RunJSON.Attempt {
  init(_ attempt: AttemptResult) {
    self.init(attempt: attempt.attempt, outcome: attempt.outcome, exitCode: attempt.exitCode.map { Int($0) },
              signal: attempt.signal.map { Int($0) }, startedAt: ISOTime.text(attempt.started), durationSeconds: attempt.duration,
              logPath: attempt.logPath)
  }
}
