import Foundation
import DuetApp
import DuetRun
import DuetOutput
import DuetSupport

/// `duet report`: the history's trends per lane, the flaky map, cache hits and failed runs.
enum ReportCommand: Command {
  static let spec = CommandSpec(
    name: "report",
    summary: "the history's trends: per lane p50/p95 with a sparkline, cache hits, flaky lanes, the runs that failed (--html FILE: a page)",
    usage: "duet report [--last N] [--html FILE]",
    options: [
      HistoryAccess.lastOption,
      OptionSpec(name: "--html", value: "FILE", help: "also write the report as one HTML page (charts, the flaky map) to FILE"),
      CommandSpec.rootOption,
    ],
    details: "read in one pass over the store; the flaky map shows the newest 60 runs of the window",
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "reported"),
      ExitCodeDoc(code: 1, meaning: "the history is off or unreadable, or the page cannot be written"),
      ExitCodeDoc(code: 2, meaning: "a usage error"),
    ],
    examples: [
      HelpExample(command: "duet report", what: "per lane: runs, p50, p95, a sparkline, cached, failed runs"),
      HelpExample(command: "duet report --last 200 --html report.html", what: "the last 200 runs, and a page to open in a browser"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let last = try arguments.positiveInt("--last", command: "report") ?? 500
    let html = arguments.value("--html")
    if html?.isEmpty == true { throw UsageError(message: "--html needs a file path", command: "report") }
    guard let store = try HistoryAccess.openForReading(arguments, command: "report", console: console, json: false) else { return ExitCode.pass }
    let report = try HistoryReport.compute(store: store, last: last)
    console.out("duet report: \(report.runs) run(s) in the window; cache hits \(ReportText.rate(report)) (\(report.cacheHits) of \(report.settled) lane runs)")
    let header = ["lane", "runs", "p50", "p95", "p50 over time", "cached", "failed", "failed, then passed"]
    for line in TextTable(header: header, rows: ReportText.laneRows(report)).lines(maxWidth: console.width) { console.out("  " + line) }
    if !report.failedRuns.isEmpty {
      console.out("runs whose verdict failed (newest \(report.failedRuns.count) of \(report.failedRunCount)):")
      let rows = report.failedRuns.map { [HistoryAccess.time($0.started), $0.id, $0.lanes.joined(separator: ", ")] }
      for line in TextTable(header: ["when", "run", "failing lanes"], rows: rows).lines(maxWidth: console.width) { console.out("  " + line) }
    }
    if let html {
      let path = URL(fileURLWithPath: html, relativeTo: arguments.invocation.workingDirectory).path
      do {
        try writeReportPage(report, to: path, time: HistoryAccess.time)
      } catch {
        throw CommandFailure(message: "duet report: error: cannot write \(path): \(error)", code: ExitCode.failed)
      }
      console.out("report: \(path)")
    }
    return ExitCode.pass
  }
}
