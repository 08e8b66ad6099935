import Foundation
import Testing
@testable import DuetApp
@testable import DuetModel
@testable import DuetRun
@testable import DuetSupport
@testable import DuetHistory

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

  /// The rows of one run in which lane `a` ended `outcome`.
  func rows(_ outcome: LaneOutcome, id: String, at started: Double) -> (run: RunRow, steps: [StepRow]) {
    let run = RunRow(id: id, logID: "20261202-181700-3f2a1b", started: started, ended: started + 1, command: "duet verify", root: root.path, gitCommit: nil,
                     host: "ci", outcome: outcome == .fail ? .fail : .pass, jobs: 1, duetVersion: "0")
    return (run, [StepRow(runID: id, lane: "a", attempt: 1, started: started, duration: 1, attemptOutcome: outcome == .fail ? .fail : .pass,
                          laneOutcome: outcome, exitCode: outcome == .fail ? 1 : 0, fingerprint: "f-\(id)", logPath: nil)])
  }

  /// Records one run in which lane `a` ended `outcome`; its rows.
  @discardableResult
  func record(_ outcome: LaneOutcome, id: String, at started: Double, into path: String) throws -> (run: RunRow, steps: [StepRow]) {
    let store = try HistoryStore(path: path)
    let rows = rows(outcome, id: id, at: started)
    try store.record(rows.run, steps: rows.steps)
    return rows
  }

  var upPath: String { root.appendingPathComponent(".duet/ci/history-linux-1.sqlite").path }

  /// The store of job linux-1 as `verify --seal` leaves it: the `restored` runs
  /// (an earlier pipeline's, in the store it started from), then one sealed
  /// verify per `sealed` run, each opening the seal before recording and closing it after.
  func job(restored: [(String, LaneOutcome, Double)], sealed: [(String, LaneOutcome, Double)]) throws {
    try FileManager.default.createDirectory(at: root.appendingPathComponent(".duet/ci"), withIntermediateDirectories: true)
    for (id, outcome, at) in restored { try record(outcome, id: id, at: at, into: upPath) }
    // A verify that recorded nothing still seals the store.
    if sealed.isEmpty { #expect(SealedStore.close(SealedStore.opening(upPath).seal, recorded: nil, store: upPath) == nil) }
    for (id, outcome, at) in sealed {
      let opened = SealedStore.opening(upPath)
      #expect(opened.warning == nil)
      let rows = try record(outcome, id: id, at: at, into: upPath)
      #expect(SealedStore.close(opened.seal, recorded: rows, store: upPath) == nil)
    }
  }

  /// `b`'s record after gating on the store of job linux-1, and the warnings.
  func gate() throws -> (record: LaneVerdict?, warnings: [String]) {
    var options = VerifyOptions()
    options.lanes = ["b"]
    options.noDeps = true
    var plan = try VerifyPlan(root: root, manifest: manifest(), builtins: BuiltinSet([]), options: options, environment: ["PATH": "/usr/bin:/bin"])
    let warnings = UpstreamVerdicts.apply([UpstreamStore(job: "linux-1", path: upPath)], to: &plan)
    return (plan.preset[1], warnings)
  }

  /// `b`'s record after gating on a job that restored `restored` and sealed `sealed`.
  func gate(restored: [(String, LaneOutcome, Double)], sealed: [(String, LaneOutcome, Double)]) throws -> LaneVerdict? {
    defer { try? FileManager.default.removeItem(at: root) }
    try job(restored: restored, sealed: sealed)
    let gated = try gate()
    #expect(gated.warnings == [])
    return gated.record
  }

  /// A need that failed upstream in this pipeline skips the lane, naming the need and the job.
  @Test func failedNeedSkips() throws {
    let record = try gate(restored: [("old", .pass, 1)], sealed: [("new", .fail, 2)])
    #expect(record?.outcome == .skipped)
    #expect(record?.reason == "needs a, failed in job linux-1")
  }

  /// A need that passed upstream lets the lane run; so does one passing in a later verify of the job.
  @Test func passedNeedRuns() throws {
    #expect(try gate(restored: [("old", .fail, 1)], sealed: [("new", .pass, 2)]) == nil)
    #expect(try gate(restored: [], sealed: [("first", .fail, 2), ("second", .pass, 3)]) == nil)
  }

  /// A pass from an earlier pipeline (in the restored store the job copied)
  /// says nothing of this one: with no sealed run upstream, the lane is skipped.
  @Test func earlierPipelinesDoNotCount() throws {
    let record = try gate(restored: [("old", .pass, 1)], sealed: [])
    #expect(record?.outcome == .skipped)
    #expect(record?.reason == "needs a, not run in job linux-1")
  }

  /// A cancelled need cancels the lane, as in a local run.
  @Test func cancelledNeedCancels() throws {
    let record = try gate(restored: [], sealed: [("new", .cancelled, 2)])
    #expect(record?.outcome == .cancelled)
    #expect(record?.reason == "needs a, cancelled in job linux-1")
  }

  /// Issue 52, item 6b: a run a lane wrote into its job's store (here a later
  /// "failed" for `a`, which passed) is no verdict duet recorded there: the
  /// store does not verify, and its lanes count as not run.
  @Test func aForgedRunMakesTheStoreNotRun() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try job(restored: [("old", .pass, 1)], sealed: [("new", .pass, 2)])
    try record(.fail, id: "forged", at: 3, into: upPath)
    let gated = try gate()
    #expect(gated.record?.outcome == .skipped)
    #expect(gated.record?.reason == "needs a, not run in job linux-1 (its verdicts do not verify)")
    #expect(gated.warnings == ["the history store of job linux-1 does not verify: it holds runs duet did not record in that job; its lanes count as not run"])
  }

  /// A seal past its bound (an upstream artifact a lane or a runner swelled)
  /// is refused unread: the store counts as not run, and nothing is held in memory.
  @Test func anOversizedSealIsRefusedUnread() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try job(restored: [], sealed: [("new", .pass, 2)])
    let seal = VerdictSeal.path(ofStore: upPath)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: seal))
    try handle.truncate(atOffset: UInt64(VerdictSeal.maxBytes) + 1)
    try handle.close()
    let gated = try gate()
    #expect(gated.record?.reason == "needs a, not run in job linux-1 (its verdicts do not verify)")
    #expect(gated.warnings.first?.contains("is larger than \(VerdictSeal.maxBytes) bytes") == true, "\(gated.warnings)")
  }

  /// A sealed verdict changed in place (a failure made a pass) does not verify either.
  @Test func aChangedVerdictMakesTheStoreNotRun() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try job(restored: [], sealed: [("new", .fail, 2)])
    try SQLiteDatabase(path: upPath).execute("UPDATE steps SET lane_outcome = 'pass', attempt_outcome = 'pass', exit_code = 0")
    let gated = try gate()
    #expect(gated.record?.reason == "needs a, not run in job linux-1 (its verdicts do not verify)")
    #expect(gated.warnings.first?.contains("the verdicts of run new are not those duet recorded") == true, "\(gated.warnings)")
  }

  /// A store with no seal beside it (a job from before seals, or one whose duet
  /// never ended) is not believed.
  @Test func aStoreWithoutASealIsNotRun() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try job(restored: [], sealed: [("new", .pass, 2)])
    try FileManager.default.removeItem(atPath: VerdictSeal.path(ofStore: upPath))
    let gated = try gate()
    #expect(gated.record?.reason == "needs a, not run in job linux-1 (its verdicts do not verify)")
    #expect(gated.warnings.first?.contains("it has no seal of the verdicts duet recorded") == true, "\(gated.warnings)")
  }

  /// A run forged between two verifies of one job breaks the seal the second
  /// extends: it warns, and nothing the job hands on is believed, even the
  /// second verify's own runs.
  @Test func aLaterVerifyKeepsAForgeryFromBeingSealed() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try job(restored: [], sealed: [("first", .pass, 2)])
    try record(.fail, id: "forged", at: 3, into: upPath)
    let opened = SealedStore.opening(upPath)
    #expect(opened.warning?.contains("the history store changed after an earlier verify of this job sealed it") == true)
    let rows = try record(.pass, id: "second", at: 4, into: upPath)
    #expect(SealedStore.close(opened.seal, recorded: rows, store: upPath) == nil)
    #expect(throws: SealedStore.Mismatch.self) { try SealedStore.verifiedRuns(upPath) }
    #expect(try gate().record?.outcome == .skipped)
  }

  /// The seal's text reads back as the seal.
  @Test func sealRoundTrips() {
    let seal = VerdictSeal(baseline: "b0", runs: [("r1", "d1"), ("r2", "d2")], broken: "why")
    #expect(VerdictSeal.parse(seal.text) == seal)
    #expect(VerdictSeal.parse("not a seal\n") == nil)
  }

  /// `history merge --sealed` imports only the sealed runs of a store that
  /// matches its seal, and refuses one that does not.
  @Test func sealedMergeTakesOnlySealedRuns() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try job(restored: [("old", .pass, 1)], sealed: [("new", .pass, 2)])
    let merged = root.appendingPathComponent("merged.sqlite").path
    let request = HistoryMergeRequest(root: root, environment: ["DUET_HISTORY": merged], files: [("up", upPath)], sealed: true)
    let first = try historyMerge(request)
    #expect(try first.merged[0].result.get().runs == 1)
    #expect(try HistoryStore(path: merged, readOnly: true).runIDs() == ["new"])
    try record(.pass, id: "forged", at: 3, into: upPath)
    let second = try historyMerge(request)
    #expect(second.exitCode == 1)
    #expect(try HistoryStore(path: merged, readOnly: true).runIDs() == ["new"])
  }
}
