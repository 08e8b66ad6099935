import DuetModel
import DuetRun
import Foundation
import DuetHistory

/// One `--upstream JOB=STORE` of `duet verify`: the history store a CI job
/// before this one handed on, and that job's id, for the notes that name it.
struct UpstreamStore: Sendable, Equatable {
  var job: String
  /// An absolute path; a store that does not exist holds no verdict.
  var path: String
}

/// How a lane in a generated CI job is gated by the lanes it needs that ran in
/// earlier jobs (issue 38: gate lanes, not jobs). Jobs run unless the pipeline
/// is cancelled; before its lanes start, duet reads each need's verdict from the
/// store of the job that ran it, and a lane whose need did not pass is settled
/// as the local run would settle it (`skipped`, or `cancelled` after a
/// cancelled need), its note naming the need and the job: `needs mocks, failed
/// in job linux-1`. A need with no verdict in this pipeline (its job failed
/// before duet ran, or was skipped) skips the lane too: nothing says it passed.
///
/// Only verdicts duet recorded in this pipeline count (issue 52, item 6b): a
/// job seals its store (`verify --seal`, `VerdictSeal`), and the runs read are
/// the sealed ones of a store that verifies (`SealedStore`). A store without a
/// seal, or one that holds a run or a verdict duet did not record there (a
/// lane wrote it), counts as not run: the lanes needing its lanes are skipped,
/// each note saying so, and the job fails.
enum UpstreamVerdicts {
  /// Settles, in `plan`, each selected lane with a need outside the run whose
  /// verdict in `upstream` does not let it run; lanes already settled (another
  /// platform, a missing program, `--skip`) keep their outcome, as in a local run.
  /// Returns warnings for stores that could not be read or do not verify.
  static func apply(_ upstream: [UpstreamStore], to plan: inout VerifyPlan) -> [String] {
    guard !upstream.isEmpty else { return [] }
    var warnings: [String] = []
    var unverified: [String] = []
    var verdicts: [String: (job: String, outcome: LaneOutcome, started: Double)] = [:]
    for store in upstream where FileManager.default.fileExists(atPath: store.path) {
      do {
        let runs = try SealedStore.verifiedRuns(store.path)
        for (lane, found) in try sealedVerdicts(store.path, runs: runs) where (verdicts[lane]?.started ?? -.infinity) < found.started {
          verdicts[lane] = (store.job, found.outcome, found.started)
        }
      } catch {
        unverified.append(store.job)
        warnings.append("the history store of job \(store.job) does not verify: \(error); its lanes count as not run")
      }
    }
    let manifest = plan.manifest
    let jobs = upstream.map(\.job)
    for index in plan.selected.sorted() where plan.preset[index] == nil {
      for need in manifest.graph.needs[index] where !plan.selected.contains(need) {
        let name = manifest.lanes[need].name
        let verdict = verdicts[name].map { ($0.job, $0.outcome) }
        guard var record = record(index, manifest.lanes[index].name, need: name, verdict: verdict, jobs: jobs, unverified: unverified) else { continue }
        record.blockedUpstream = true
        plan.preset[index] = record
        break
      }
    }
    return warnings
  }

  /// The record of a lane whose need `need` has `verdict` upstream; nil when the need passed.
  /// `unverified`: the jobs whose stores did not verify, named in the note of a need with no verdict.
  static func record(_ index: Int, _ lane: String, need: String, verdict: (job: String, outcome: LaneOutcome)?, jobs: [String],
                     unverified: [String] = []) -> LaneVerdict? {
    guard let verdict else {
      let whereNot = jobs.count == 1 ? "job \(jobs[0])" : "jobs \(jobs.joined(separator: ", "))"
      var why = ""
      if unverified == jobs, jobs.count == 1 {
        why = " (its verdicts do not verify)"
      } else if !unverified.isEmpty {
        why = " (the verdicts of job\(unverified.count == 1 ? "" : "s") \(unverified.joined(separator: ", ")) do not verify)"
      }
      return LaneVerdict(index: index, name: lane, outcome: .skipped, reason: "needs \(need), not run in \(whereNot)\(why)")
    }
    if verdict.outcome.letsDependentsRun { return nil }
    let word: String
    switch verdict.outcome {
    case .fail: word = "failed"
    case .timeout: word = "timed out"
    case .cancelled, .interrupted: word = "cancelled"
    default: word = verdict.outcome.rawValue
    }
    let outcome: LaneOutcome = verdict.outcome == .cancelled || verdict.outcome == .interrupted ? .cancelled : .skipped
    return LaneVerdict(index: index, name: lane, outcome: outcome, reason: "needs \(need), \(word) in job \(verdict.job)")
  }

  /// Each lane's newest outcome among the sealed `runs` of the store at `path`.
  static func sealedVerdicts(_ path: String, runs ids: [String]) throws -> [String: (outcome: LaneOutcome, started: Double)] {
    let store = try HistoryStore(path: path, readOnly: true)
    let wanted = Set(ids)
    let runs = try store.recentRuns(limit: Int(Int32.max)).filter { wanted.contains($0.id) }
    var result: [String: (outcome: LaneOutcome, started: Double)] = [:]
    let started = Dictionary(runs.map { ($0.id, $0.started) }, uniquingKeysWith: max)
    for step in try store.steps(ofRuns: runs.map(\.id)) {
      guard let outcome = step.laneOutcome, outcome != .unaffected, let when = started[step.runID] else { continue }
      if (result[step.lane]?.started ?? -.infinity) < when { result[step.lane] = (outcome, when) }
    }
    return result
  }
}
