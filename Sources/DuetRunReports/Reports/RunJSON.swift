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
  struct Attempt: Codable, Sendable, Equatable {
    var attempt: Int
    var outcome: AttemptOutcome
    @Nullable var exitCode: Int?
    @Nullable var signal: Int?
    /// ISO 8601 with offset (`ISOTime`), as every report prints a time.
    var startedAt: String
    var durationSeconds: Double
    @Nullable var logPath: String?
    /// The quarantine excused it: `outcome` is the failure it was, the lane passed on it this run only.
    var excused: Bool
  }

  /// One lane: its outcome, its attempts, and what the cache made of it.
  package struct Lane: Codable, Sendable, Equatable {
    var name: String
    var outcome: LaneOutcome
    var durationSeconds: Double
    var attempts: [Attempt]
    @Nullable var reason: String?
    @Nullable var fingerprint: String?
    @Nullable var cache: String?
    /// It passed only because the quarantine excused a failure (issue 50).
    var excused: Bool
    /// The failed test cases (`suite.name`) the quarantine excused; empty when
    /// nothing was excused or a whole-lane entry was.
    var quarantined: [String]
  }

  /// Nil for a run that started nothing (an empty shard).
  @Nullable var runId: String?
  var root: String
  var outcome: RunOutcome
  var summary: String
  /// Lanes per outcome, keyed by the outcome's word.
  var counts: [String: Int]
  var changedTrackedFiles: [String]
  var reportErrors: [String]
  var durationSeconds: Double
  var failed: [String]
  /// Lanes duet could not start (outcome `error`): the machine's failure.
  var couldNotStart: [String]
  var flaky: [String]
  var lanes: [Lane]

  /// `runID` is nil for a run that started nothing (an empty shard).
  package init(_ verdict: RunVerdict, runID: String?, root: URL, fingerprints: [Int: String] = [:], decisions: [Int: CacheCheck.Decision] = [:]) {
    runId = runID
    self.root = root.path
    self.outcome = verdict.outcome
    summary = verdict.lastLine.text
    counts = Dictionary(uniqueKeysWithValues: verdict.counts.map { ($0.key.rawValue, $0.value) })
    changedTrackedFiles = verdict.changedTrackedFiles
    reportErrors = verdict.reportErrors
    durationSeconds = verdict.duration
    failed = verdict.failed.map(\.name)
    couldNotStart = verdict.couldNotStart.map(\.name)
    flaky = verdict.flaky.map(\.name)
    lanes = verdict.lanes.map { record in
      Lane(name: record.name, outcome: record.outcome, durationSeconds: record.duration,
           attempts: record.attempts.map(Attempt.init), reason: record.reason,
           fingerprint: fingerprints[record.index], cache: decisions[record.index]?.text,
           excused: record.last?.excused == true, quarantined: record.last?.excused == true ? record.last?.quarantinedFailures ?? [] : [])
    }
  }
}

extension RunJSON.Attempt {
  init(_ attempt: LaneAttempt) {
    self.init(attempt: attempt.attempt, outcome: attempt.excused ? attempt.excusedFailure ?? .fail : attempt.outcome,
              exitCode: attempt.exitCode.map { Int($0) }, signal: attempt.signal.map { Int($0) }, startedAt: ISOTime.text(attempt.started),
              durationSeconds: attempt.duration, logPath: attempt.logPath, excused: attempt.excused)
  }
}
