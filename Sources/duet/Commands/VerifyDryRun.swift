import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetOutput
import DuetSupport

/// `duet verify --dry-run`: what a run would do, lane by lane, without running.
extension VerifyCommand {
  /// `--dry-run`: the start order and, per lane, `cached` or why it will run.
  static func printDryRun(_ session: VerifySession, console: Console) {
    let report = dryRunObject(session)
    console.out("duet verify --dry-run: \(report.lanes.count) lane(s), \(report.countParts.joined(separator: ", ")), at most \(report.jobs) at once; in start order:")
    let table = report.lanes.enumerated().map { position, lane -> [String] in
      ["\(position + 1).", lane.name, lane.status, lane.reason]
    }
    for line in TextTable(header: nil, rows: table).lines(maxWidth: console.width) { console.out("  " + line) }
    console.out("nothing was run")
  }

  /// The dry run as a value, for the text above and for `--dry-run --json`.
  static func dryRunObject(_ session: VerifySession) -> DryRunReport {
    let lanes = dryRunRows(session).map { row in
      DryRunReport.Lane(name: row.lane.name, status: row.status, reason: row.why, needs: row.lane.needs, command: row.lane.commandText)
    }
    return DryRunReport(jobs: session.plan.options.jobs, lanes: lanes)
  }

  /// Each selected lane in start order with what the run would do with it:
  /// `cached`, `skipped`/`fail` (settled before the run) or `runs`, and why.
  static func dryRunRows(_ session: VerifySession) -> [(lane: Lane, status: String, why: String)] {
    var settledPlan = session.runPlan
    // One step of the plan settles what cannot start (a lane failed before the run under --fail-fast).
    _ = settledPlan.nextStarts()
    var settled: [Int: LaneRecord] = [:]
    for record in settledPlan.takeSettled() { settled[record.index] = record }
    return session.plan.startOrder.map { index in
      let lane = session.plan.manifest.lanes[index]
      if let record = settled[index] {
        return (lane, record.outcome.rawValue, record.reason ?? "")
      }
      var why = session.decisions[index]?.text ?? ""
      if case .runs(let reason)? = session.plan.affected[index] {
        // Without inputs there is no cache to speak of; the change already says why it runs.
        let redundant = why == "no inputs declared" || why == "no inputs known" || why.hasPrefix("a need will run") || why.hasPrefix("needs will run")
        why = redundant ? reason : reason + "; " + why
      }
      return (lane, "runs", why)
    }
  }
}
