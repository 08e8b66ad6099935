import DuetModel
import DuetRun
import DuetOutput
import DuetSupport
import Foundation
import DuetRunReports

/// What `duet verify` prints once a run is over: the failures (or GitHub's
/// annotations), the summary table, the last line; the dry run's table; or the
/// JSON of either.
extension VerifyResponse {
  func printout(_ format: TextFormat, request: VerifyRequest) -> Printout {
    var printout = Printout()
    switch self {
    case .nothingToRun(let sentence):
      printout.out("\(sentence)")
    case .dryRun(let decided):
      if format.json { printout.json(ReportJSON.text(VerifyText.dryRunReport(decided))) } else { VerifyText.dryRun(decided, width: format.width, into: &printout) }
    case .ran(let verdict, nil):
      // A shard with no lanes: nothing ran, so there is no table to print.
      if format.json { printout.json(ReportJSON.text(RunJSON(verdict, runID: nil, root: request.root))) }
    case .ran(let verdict, let decided?):
      if format.json {
        printout.json(ReportJSON.text(RunJSON(verdict, runID: decided.plan.runID, root: request.root,
                                             fingerprints: decided.fingerprints.fingerprints, decisions: decided.decisions)))
        if request.reports.github { for line in GitHubAnnotations.lines(verdict, stopToken: UUID().uuidString) { printout.err("\(line, in: .laneOutput)") } }
      } else {
        VerifyText.report(verdict, width: format.width, github: request.reports.github, into: &printout)
      }
    }
    return printout
  }
}

enum VerifyText {
  static func report(_ verdict: RunVerdict, width: Int, github: Bool, into printout: inout Printout) {
    let failures = verdict.unfinished
    let annotations = github ? GitHubAnnotations.lines(verdict, stopToken: UUID().uuidString) : []
    if !annotations.isEmpty {
      printout.out("")
      // Workflow commands GitHubAnnotations escaped, around lanes' log tails as the lanes wrote them.
      for line in annotations { printout.out("\(line, in: .laneOutput)") }
      printout.out("")
    } else if !failures.isEmpty {
      printout.out("")
      for record in failures {
        for line in RunText.failureLines(record) { printout.out(line) }
        printout.out("")
      }
    } else {
      printout.out("")
    }
    for line in RunText.summary(verdict, maxWidth: width) { printout.out(line) }
    printout.out("")
    if let flaky = RunText.flakyLine(verdict) { printout.out(flaky, paint: "33") }
    if let timings = verdict.timingsPath { printout.out("timings: \(timings)") }
    printout.out(verdict.lastLine, paint: verdict.outcome == .pass ? "32;1" : "31;1")
  }

  /// `--dry-run`: the start order and, per lane, `cached` or why it will run.
  static func dryRun(_ decided: VerifyPipeline.Decided, width: Int, into printout: inout Printout) {
    let report = dryRunReport(decided)
    printout.out("duet verify --dry-run: \(report.lanes.count) lane(s), \(report.countParts.joined(separator: ", ")), at most \(report.jobs) at once; in start order:")
    let table = report.lanes.enumerated().map { position, lane -> [TerminalLine] in
      ["\(position + 1).", "\(lane.name)", "\(lane.status)", "\(lane.reason)"]
    }
    printout.table(TextTable(header: nil, rows: table), width: width)
    printout.out("nothing was run")
  }

  /// The dry run as a value, for the text above and for `--dry-run --json`.
  static func dryRunReport(_ decided: VerifyPipeline.Decided) -> DryRunReport {
    let lanes = dryRunRows(decided).map { row in
      DryRunReport.Lane(name: row.lane.name, status: row.status, reason: row.why, needs: row.lane.needs, command: row.lane.commandText)
    }
    return DryRunReport(jobs: decided.plan.options.jobs, lanes: lanes)
  }

  /// Each selected lane in start order with what the run would do with it:
  /// `cached`, `skipped`/`fail` (settled before the run) or `runs`, and why.
  static func dryRunRows(_ decided: VerifyPipeline.Decided) -> [(lane: Lane, status: String, why: String)] {
    var settledPlan = decided.plan.schedule
    // One step of the plan settles what cannot start (a lane failed before the run under --fail-fast).
    _ = settledPlan.nextStarts()
    var settled: [Int: LaneVerdict] = [:]
    for record in settledPlan.takeSettled() { settled[record.index] = record }
    return decided.plan.startOrder.map { index in
      let lane = decided.plan.manifest.lanes[index]
      if let record = settled[index] {
        return (lane, record.outcome.rawValue, record.reason ?? "")
      }
      var why = decided.decisions[index]?.text ?? ""
      if case .runs(let reason)? = decided.plan.affected[index] {
        // Without inputs there is no cache to speak of; the change already says why it runs.
        let redundant = why == "no inputs declared" || why == "no inputs known" || why.hasPrefix("a need will run") || why.hasPrefix("needs will run")
        why = redundant ? reason : reason + "; " + why
      }
      // Against another checkout's or machine's pass of this commit too (issue 56).
      if let miss = decided.misses[index] { why = miss.isLastVerdict ? miss.words(lane: lane.name) : why + "; " + miss.words(lane: lane.name) }
      return (lane, "runs", why)
    }
  }
}

/// What a run event shows on the progress display: the executable draws it
/// (live status line, colours), this says what the words are.
enum ProgressUpdate: Sendable {
  /// A lane started: it joins the status line.
  case started(lane: String)
  /// A line to print, painted with the SGR code.
  case retrying(line: TerminalLine, paint: String)
  /// A lane ended: it leaves the status line, `count` lanes are done, and its line is printed.
  case finished(lane: String, count: Int, line: TerminalLine, paint: String)

  init(_ event: RunEvent, total: Int) {
    switch event {
    case .started(_, let name, _):
      self = .started(lane: name)
    case .retrying(_, let name, let failed):
      let how = failed.outcome == .timeout ? "timed out" : RunText.endText(failed)
      self = .retrying(line: "      ↻ \(name): attempt \(failed.attempt) \(how); retrying", paint: "33")
    case .finished(let record, let count, _):
      let paint: String
      switch record.outcome {
      case .pass, .cached: paint = "32"
      case .flaky: paint = "33"
      case .fail, .timeout, .interrupted, .error: paint = "31"
      case .skipped, .cancelled, .unaffected: paint = "2"
      }
      self = .finished(lane: record.name, count: count, line: RunText.progressLine(record, finished: count, total: total), paint: paint)
    }
  }
}
