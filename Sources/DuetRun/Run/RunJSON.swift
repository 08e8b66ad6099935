import Foundation
import DuetModel
import DuetSupport

/// The run as JSON for scripts (`duet verify --json`), `schemaVersion` 1.
public enum RunJSON {
  /// `runID` is nil for a run that started nothing (an empty shard).
  public static func object(_ outcome: VerifyOutcome, runID: String?, root: URL, fingerprints: [Int: String] = [:], decisions: [Int: CacheCheck.Decision] = [:]) -> [String: Any] {
    let result = outcome.run
    let lanes: [[String: Any]] = result.records.map { record in
      var lane: [String: Any] = [
        "name": record.name,
        "outcome": record.outcome.rawValue,
        "durationSeconds": record.duration,
        "attempts": record.attempts.map { attempt -> [String: Any] in
          [
            "attempt": attempt.attempt,
            "outcome": attempt.outcome.rawValue,
            "exitCode": attempt.exitCode.map { Int($0) as Any } ?? NSNull(),
            "signal": attempt.signal.map { Int($0) as Any } ?? NSNull(),
            "startedAt": attempt.started,
            "durationSeconds": attempt.duration,
            "logPath": attempt.logPath ?? NSNull(),
          ]
        },
      ]
      lane["reason"] = record.reason ?? NSNull()
      lane["fingerprint"] = fingerprints[record.index] ?? NSNull()
      lane["cache"] = decisions[record.index]?.text ?? NSNull()
      return lane
    }
    return [
      "schemaVersion": 1,
      "runId": runID ?? NSNull(),
      "root": root.path,
      "outcome": outcome.verdict.rawValue,
      "summary": outcome.lastLine,
      "counts": Dictionary(uniqueKeysWithValues: outcome.counts.map { ($0.key.rawValue, $0.value) }),
      "changedTrackedFiles": outcome.changedTrackedFiles,
      "reportErrors": outcome.reportErrors,
      "durationSeconds": result.duration,
      "failed": result.failed.map(\.name),
      "flaky": result.flaky.map(\.name),
      "lanes": lanes,
    ]
  }
}
