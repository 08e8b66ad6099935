import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet verify --dry-run`: what a run would do, lane by lane, without running.
extension VerifyCommand {
  /// `--dry-run`: the start order and, per lane, `cached` or why it will run.
  static func printDryRun(_ session: VerifySession, console: Console) {
    let rows = dryRunRows(session)
    var counts: [String: Int] = [:]
    for row in rows { counts[row.status, default: 0] += 1 }
    var parts = ["\(counts["runs"] ?? 0) would run", "\(counts["cached"] ?? 0) cached"]
    if let skipped = counts["skipped"] { parts.append("\(skipped) skipped") }
    if let unaffected = counts["unaffected"] { parts.append("\(unaffected) unaffected") }
    if let failed = counts["fail"] { parts.append("\(failed) would fail") }
    console.out("duet verify --dry-run: \(rows.count) lane(s), \(parts.joined(separator: ", ")), at most \(session.plan.options.jobs) at once; in start order:")
    let table = rows.enumerated().map { position, row -> [String] in
      ["\(position + 1).", row.lane.name, row.status, row.why]
    }
    for line in TextTable(header: nil, rows: table).lines(maxWidth: console.width) { console.out("  " + line) }
    console.out("nothing was run")
  }

  static func dryRunObject(_ session: VerifySession) -> [String: Any] {
    [
      "dryRun": true,
      "jobs": session.plan.options.jobs,
      "lanes": dryRunRows(session).map { row -> [String: Any] in
        ["name": row.lane.name, "status": row.status, "reason": row.why, "needs": row.lane.needs, "command": row.lane.commandText]
      },
    ]
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
