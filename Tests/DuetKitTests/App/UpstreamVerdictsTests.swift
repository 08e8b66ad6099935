import Foundation
import Testing
@testable import DuetApp
@testable import DuetModel
@testable import DuetRun
@testable import DuetSupport

/// Issue 38: how `--upstream JOB=STORE` gates a CI job's lanes by the verdicts
/// of their needs in the stores of the jobs before it.
@Suite("Upstream verdicts")
struct UpstreamVerdictsTests {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("duet-upstream-\(UUID().uuidString)")

  func manifest() -> Manifest {
    var a = Lane(name: "a", step: .shell("true"), location: SourceLocation(file: "m", line: 1, column: 1))
    a.needs = []
    var b = Lane(name: "b", step: .shell("true"), location: SourceLocation(file: "m", line: 2, column: 1))
    b.needs = ["a"]
    return Manifest(path: "lanes/manifest.yaml", lanes: [a, b])
  }

  /// Records one run in which lane `a` ended `outcome`.
  func record(_ outcome: LaneOutcome, id: String, at started: Double, into path: String) throws {
    let store = try HistoryStore(path: path)
    let run = RunRow(id: id, logID: id, started: started, ended: started + 1, command: "duet verify", root: root.path, gitCommit: nil,
                     host: "ci", outcome: outcome == .fail ? .fail : .pass, jobs: 1, duetVersion: "0")
    try store.record(run, steps: [StepRow(runID: id, lane: "a", attempt: 1, started: started, duration: 1, attemptOutcome: outcome == .fail ? .fail : .pass,
                                          laneOutcome: outcome, exitCode: outcome == .fail ? 1 : 0, fingerprint: nil, logPath: nil)])
  }

  /// `b`'s record after gating on a store holding `upstream` runs of `a`, the job's own store holding `own`.
  func gate(own: [(String, LaneOutcome, Double)], upstream: [(String, LaneOutcome, Double)]) throws -> LaneRecord? {
    try FileManager.default.createDirectory(at: root.appendingPathComponent(".duet/ci"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let ownPath = root.appendingPathComponent(".duet/ci/history-linux-2.sqlite").path
    let upPath = root.appendingPathComponent(".duet/upstream/history-linux-1.sqlite").path
    for (id, outcome, at) in own { try record(outcome, id: id, at: at, into: ownPath) }
    for (id, outcome, at) in upstream { try record(outcome, id: id, at: at, into: upPath) }
    var options = VerifyOptions()
    options.lanes = ["b"]
    options.noDeps = true
    var plan = try VerifyPlan(root: root, manifest: manifest(), builtins: BuiltinSet([]), options: options, environment: ["PATH": "/usr/bin:/bin"])
    let warnings = UpstreamVerdicts.apply([UpstreamStore(job: "linux-1", path: upPath)], to: &plan, ownStore: ownPath)
    #expect(warnings == [])
    return plan.preset[1]
  }

  /// A need that failed upstream in this pipeline skips the lane, naming the need and the job.
  @Test func failedNeedSkips() throws {
    let record = try gate(own: [("old", .pass, 1)], upstream: [("old", .pass, 1), ("new", .fail, 2)])
    #expect(record?.outcome == .skipped)
    #expect(record?.reason == "needs a, failed in job linux-1")
  }

  /// A need that passed upstream lets the lane run.
  @Test func passedNeedRuns() throws {
    #expect(try gate(own: [("old", .fail, 1)], upstream: [("old", .fail, 1), ("new", .pass, 2)]) == nil)
  }

  /// A pass from an earlier pipeline (in the restored store both jobs copied)
  /// says nothing of this one: with no new run upstream, the lane is skipped.
  @Test func earlierPipelinesDoNotCount() throws {
    let record = try gate(own: [("old", .pass, 1)], upstream: [("old", .pass, 1)])
    #expect(record?.outcome == .skipped)
    #expect(record?.reason == "needs a, not run in job linux-1")
  }

  /// A cancelled need cancels the lane, as in a local run.
  @Test func cancelledNeedCancels() throws {
    let record = try gate(own: [], upstream: [("new", .cancelled, 2)])
    #expect(record?.outcome == .cancelled)
    #expect(record?.reason == "needs a, cancelled in job linux-1")
  }
}
