import Foundation
import DuetModel
import DuetOutput
import DuetSupport
import DuetRun
import DuetHistory

/// The run as JSON for scripts (`duet verify --json`): a value that `ReportJSON`
/// prints with `schemaVersion` 1, its properties named as the keys are.
package struct RunJSON: Codable, Sendable, Equatable {
  /// One attempt of a lane; `exitCode` and `signal` are null when it did not end that way.
  package struct Attempt: Codable, Sendable, Equatable {
    package var attempt: Int
    package var outcome: AttemptOutcome
    @Nullable package var exitCode: Int?
    @Nullable package var signal: Int?
    /// ISO 8601 with offset (`ISOTime`), as every report prints a time.
    package var startedAt: String
    package var durationSeconds: Double
    @Nullable package var logPath: String?
    /// The quarantine excused it: `outcome` is the failure it was, the lane passed on it this run only.
    package var excused: Bool
  }

  /// One lane: its outcome, its attempts, and what the cache made of it.
  package struct Lane: Codable, Sendable, Equatable {
    package var name: String
    package var outcome: LaneOutcome
    package var durationSeconds: Double
    package var attempts: [Attempt]
    @Nullable package var reason: String?
    @Nullable package var fingerprint: String?
    @Nullable package var cache: String?
    /// It passed only because the quarantine excused a failure (issue 50).
    package var excused: Bool
    /// The failed test cases (`suite.name`) the quarantine excused; empty when
    /// nothing was excused or a whole-lane entry was.
    package var quarantined: [String]
  }

  /// Nil for a run that started nothing (an empty shard).
  @Nullable package var runId: String?
  package var root: String
  package var outcome: VerifyOutcome.Verdict
  package var summary: String
  /// Lanes per outcome, keyed by the outcome's word.
  package var counts: [String: Int]
  package var changedTrackedFiles: [String]
  package var reportErrors: [String]
  package var durationSeconds: Double
  package var failed: [String]
  /// Lanes duet could not start (outcome `error`): the machine's failure.
  package var couldNotStart: [String]
  package var flaky: [String]
  package var lanes: [Lane]

  /// `runID` is nil for a run that started nothing (an empty shard).
  package init(_ outcome: VerifyOutcome, runID: String?, root: URL, fingerprints: [Int: String] = [:], decisions: [Int: CacheCheck.Decision] = [:]) {
    let result = outcome.run
    runId = runID
    self.root = root.path
    self.outcome = outcome.verdict
    summary = outcome.lastLine.text
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
           fingerprint: fingerprints[record.index], cache: decisions[record.index]?.text,
           excused: record.last?.excused == true, quarantined: record.last?.excused == true ? record.last?.quarantinedFailures ?? [] : [])
    }
  }
}

extension RunJSON.Attempt {
  init(_ attempt: AttemptResult) {
    self.init(attempt: attempt.attempt, outcome: attempt.excused ? attempt.excusedFailure ?? .fail : attempt.outcome,
              exitCode: attempt.exitCode.map { Int($0) }, signal: attempt.signal.map { Int($0) }, startedAt: ISOTime.text(attempt.started),
              durationSeconds: attempt.duration, logPath: attempt.logPath, excused: attempt.excused)
  }
}
