import Foundation

/// The run as JSON for scripts (`duet verify --json`), `schemaVersion` 1.
public enum RunJSON {
  public static func object(_ result: RunResult, plan: VerifyPlan, fingerprints: [Int: String] = [:]) -> [String: Any] {
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
      return lane
    }
    return [
      "schemaVersion": 1,
      "runId": plan.runID,
      "root": plan.root.path,
      "outcome": result.interrupted ? "interrupted" : (result.passed ? "pass" : "fail"),
      "durationSeconds": result.duration,
      "failed": result.failed.map(\.name),
      "flaky": result.flaky.map(\.name),
      "lanes": lanes,
    ]
  }

  public static func text(_ result: RunResult, plan: VerifyPlan, fingerprints: [Int: String] = [:]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object(result, plan: plan, fingerprints: fingerprints), options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
