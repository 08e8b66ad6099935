import Foundation
import Testing
@testable import DuetRun
@testable import DuetOutput
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetRunReports

/// `duet verify --json` and `--dry-run --json` as values: the bytes the
/// dictionaries printed, and a round trip.
struct RunJSONTests {
  static let outcome: RunVerdict = {
    let records = [
      LaneVerdict(index: 0, name: "build", outcome: .pass, attempts: [
        LaneAttempt(attempt: 1, outcome: .pass, exitCode: 0, started: 1_796_321_894.4045367, duration: 0.38545680046081543,
                      logPath: ".duet/logs/r/build.log", tail: LogTail()),
      ]),
      LaneVerdict(index: 1, name: "test", outcome: .flaky, attempts: [
        LaneAttempt(attempt: 1, outcome: .timeout, exitCode: nil, signal: 9, started: 10, duration: 0.5, logPath: nil, tail: LogTail()),
        LaneAttempt(attempt: 2, outcome: .pass, exitCode: 0, started: 11, duration: 2, logPath: "a/b.log", tail: LogTail()),
      ]),
      LaneVerdict(index: 2, name: "lint", outcome: .fail, reason: "exit 3", attempts: [
        LaneAttempt(attempt: 1, outcome: .fail, exitCode: 3, started: 12, duration: 1.25, logPath: nil, tail: LogTail()),
      ]),
      LaneVerdict(index: 3, name: "ui", outcome: .skipped, reason: "a need failed"),
    ]
    return RunVerdict(lanes: records, interrupted: false, duration: 9.407586455345154,
                         changedTrackedFiles: ["src/a.swift"], reportErrors: ["--junit: cannot write x"])
  }()

  static let fingerprints = [0: "849bfe88", 1: "11aa"]
  static let decisions: [Int: CacheCheck.Decision] = [0: .runs("no passing run recorded"), 2: .cached]

  /// The dictionary `RunJSON.object` built before the report was a value.
  static func legacy(_ outcome: RunVerdict, runID: String?, root: URL) -> [String: Any] {
    let result = outcome
    let lanes: [[String: Any]] = result.lanes.map { record in
      var lane: [String: Any] = [
        "name": record.name, "outcome": record.outcome.rawValue, "durationSeconds": record.duration,
        "attempts": record.attempts.map { attempt -> [String: Any] in
          [
            "attempt": attempt.attempt, "outcome": attempt.outcome.rawValue,
            "exitCode": attempt.exitCode.map { Int($0) as Any } ?? NSNull(), "signal": attempt.signal.map { Int($0) as Any } ?? NSNull(),
            "startedAt": HistoryJSONTests.iso(attempt.started), "durationSeconds": attempt.duration, "logPath": attempt.logPath ?? NSNull(),
            // Issue 50, item 8: whether the quarantine excused the attempt.
            "excused": attempt.excused,
          ]
        },
      ]
      lane["reason"] = record.reason ?? NSNull()
      lane["fingerprint"] = fingerprints[record.index] ?? NSNull()
      lane["cache"] = decisions[record.index]?.text ?? NSNull()
      // Issue 50, item 8: a pass that needed the quarantine, and the failures it excused.
      lane["excused"] = record.last?.excused == true
      lane["quarantined"] = record.last?.excused == true ? record.last?.quarantinedFailures ?? [] : []
      return lane
    }
    return [
      "runId": runID ?? NSNull(), "root": root.path, "outcome": outcome.outcome.rawValue, "summary": outcome.lastLine.text,
      "counts": Dictionary(uniqueKeysWithValues: outcome.counts.map { ($0.key.rawValue, $0.value) }),
      "changedTrackedFiles": outcome.changedTrackedFiles, "reportErrors": outcome.reportErrors,
      "durationSeconds": result.duration, "failed": result.failed.map(\.name), "flaky": result.flaky.map(\.name), "lanes": lanes,
      // Issue 39, item 11: the lanes duet could not start, beside the failed ones.
      "couldNotStart": result.couldNotStart.map(\.name),
    ]
  }

  @Test func runBytesAsBefore() throws {
    let root = URL(fileURLWithPath: "/tmp/tree")
    let report = RunJSON(Self.outcome, runID: "20261203-181814-f5b9aa", root: root, fingerprints: Self.fingerprints, decisions: Self.decisions)
    #expect(ReportJSON.text(report) == LegacyJSON.text(Self.legacy(Self.outcome, runID: "20261203-181814-f5b9aa", root: root)))
    #expect(try LegacyJSON.roundTrips(report))
  }

  /// An empty shard: no run id (null), no lanes.
  @Test func emptyRunBytesAsBefore() throws {
    let outcome = RunVerdict(lanes: [], interrupted: false, duration: 0)
    let root = URL(fileURLWithPath: "/t")
    let report = RunJSON(outcome, runID: nil, root: root)
    #expect(ReportJSON.text(report) == LegacyJSON.text(Self.legacy(outcome, runID: nil, root: root)))
    #expect(ReportJSON.text(report).contains("\"runId\" : null"))
    #expect(try LegacyJSON.roundTrips(report))
  }

  @Test func dryRunBytesAsBefore() throws {
    let report = DryRunReport(jobs: 2, lanes: [
      .init(name: "design-tokens", status: "runs", reason: "no passing run recorded", needs: [], command: "design-tokens --check"),
      .init(name: "kotlin", status: "cached", reason: "inputs unchanged", needs: ["design-tokens"], command: "mkdir -p \"$DUET_ROOT/.duet\""),
      .init(name: "ui", status: "skipped", reason: "a need failed", needs: ["kotlin"], command: "x"),
    ])
    let legacy: [String: Any] = [
      "dryRun": true, "jobs": 2,
      "lanes": report.lanes.map { ["name": $0.name, "status": $0.status, "reason": $0.reason, "needs": $0.needs, "command": $0.command] },
    ]
    #expect(ReportJSON.text(report) == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(report))
    #expect(report.countParts == ["1 would run", "1 cached", "1 skipped"])
  }
}
