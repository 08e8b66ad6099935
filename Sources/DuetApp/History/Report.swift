import DuetModel
import DuetRun
import DuetOutput
import DuetSupport
import DuetTestReports
import Foundation
import DuetPages
import DuetHistory

/// `duet report`: the history's trends per lane, the flaky tests in words (when
/// lanes have `reports:`), cache hits and the runs that failed.
struct ReportRequest: Sendable {
  var root: URL
  /// The invocation's environment: `DUET_HISTORY` says where the store is.
  var environment: [String: String]
  var last = 500
  /// `--html FILE`, absolute: also write the report as a page there.
  var htmlPath: String?
  /// The time the flaky tests' recovery (7 days with no evidence) is counted to.
  var now = Date().timeIntervalSince1970
  init(root: URL, environment: [String: String]) {
    self.root = root
    self.environment = environment
  }
}

enum ReportResponse: CommandResponse {
  /// No store yet; with `--html FILE`, no page was written (exit 1, said).
  case noHistory(NoHistory, htmlPath: String?)
  /// The report, the page's path when one was asked for, and why it could not be written.
  case report(HistoryReport, htmlPath: String?, htmlError: TerminalLine?)

  var exitCode: Int32 {
    if case .report(_, _, _?) = self { return ExitCode.failed }
    // A page was asked for and none was written: a script must not take it as made.
    if case .noHistory(_, _?) = self { return ExitCode.failed }
    return ExitCode.pass
  }

  func printout(_ format: TextFormat) -> Printout {
    let (report, html, htmlError): (HistoryReport, String?, TerminalLine?)
    switch self {
    case .noHistory(let none, let path):
      var printout = none.printout(json: false)
      if let path { printout.err("duet report: error: no page written to \(path): there is no run to report yet") }
      return printout
    case .report(let found, let path, let error): (report, html, htmlError) = (found, path, error)
    }
    var printout = Printout()
    printout.out("duet report: \(report.runs) run(s) in the window; cache hits \(ReportText.rate(report)) (\(report.cacheHits) of \(report.settled) lane runs)")
    if report.origins.count > 1 { printout.out("runs from: \(OriginTally.words(report.origins))") }
    let header: [TerminalLine] = ["lane", "runs", "p50", "p95", "p50 over time", "cached", "failed", "failed, then passed"]
    printout.table(TextTable(header: header, rows: ReportText.laneRows(report).map { $0.map { TerminalLine(escaping: $0) } }), width: format.width)
    if let words = report.flakyLanes, let lead = words.lead {
      let named: [TerminalLine] = words.lanes.map { "\($0.name) (\($0.why))" }
      printout.out("\(lead) \(named.joined(separator: ", "))")
    } else if report.flakyLanes != nil {
      printout.out("\(FlakyLanesInWords.noneFlaky)")
    }
    if let line = report.flakyTests?.line { printout.out(line) }
    ReportResponse.quarantineLines(report).forEach { printout.out($0) }
    if !report.failedRuns.isEmpty {
      printout.out("runs whose verdict failed (newest \(report.failedRuns.count) of \(report.failedRunCount)):")
      let rows = report.failedRuns.map { ["\(HistoryAccess.time($0.started))", "\($0.id)", "\($0.lanes.joined(separator: ", "))"] as [TerminalLine] }
      printout.table(TextTable(header: ["when", "run", "failing lanes"], rows: rows), width: format.width)
    }
    if let htmlError {
      printout.err(htmlError)
    } else if let html {
      printout.out("report: \(html)")
    }
    return printout
  }
}

extension ReportResponse {
  /// The lanes the quarantine excused in the window, and the quarantine's entries, as lines.
  static func quarantineLines(_ report: HistoryReport) -> [TerminalLine] {
    var lines: [TerminalLine] = []
    let excused = report.lanes.filter { $0.excusedRuns > 0 }.map { "\($0.name) (in \($0.excusedRuns) of \($0.durations.count) run(s))" as TerminalLine }
    if !excused.isEmpty { lines.append("excused by the quarantine: \(excused.joined(separator: ", "))") }
    for entry in report.quarantine {
      lines.append("quarantined (\(QuarantineFile.defaultPath)): \(entry.label) until \(entry.until)\(entry.active ? "" : " (past)"): \(entry.reason)")
    }
    return lines
  }
}

/// The entries of `lanes/quarantine.yaml` as the report shows them; none when
/// the file or the manifest cannot be read (the report is about the store,
/// and `duet doctor` names a broken quarantine).
func quarantined(root: URL, now: Double) -> [HistoryReport.Quarantined] {
  guard let manifest = try? TreeManifest.load(root: root).manifest,
        let file = try? QuarantineFile.load(root: root, lanes: Set(manifest.lanes.map(\.name))) else { return [] }
  let today = QuarantineDate(Date(timeIntervalSince1970: now))
  return file.entries.map { HistoryReport.Quarantined(label: $0.label.text, until: $0.until.description, reason: $0.reason, active: $0.isActive(on: today)) }
}

/// Throws `CommandFailure` for a store that is off or unreadable; a page that
/// cannot be written is said after the report, with exit 1.
func report(_ request: ReportRequest) throws -> ReportResponse {
  let store: HistoryStore
  switch try HistoryAccess.openForReading(root: request.root, environment: request.environment, command: "report") {
  case .none(let none): return .noHistory(none, htmlPath: request.htmlPath)
  case .store(let opened): store = opened
  }
  var report = try HistoryReport.compute(store: store, last: request.last)
  report.flakyTests = FlakyTestsInWords(try TestFlakyReport.compute(store: store, last: request.last, since: nil, now: request.now))
  report.origins = try store.windowOrigins(last: request.last, since: nil)
  report.flakyLanes = FlakyLanesInWords(try FlakyReport.compute(store: store, last: request.last, since: nil, now: request.now))
  report.quarantine = quarantined(root: request.root, now: request.now)
  var htmlError: TerminalLine?
  if let path = request.htmlPath {
    do {
      try writeReportPage(report, to: path, time: HistoryAccess.time)
    } catch {
      htmlError = "duet report: error: cannot write \(path): \(String(describing: error))"
    }
  }
  return .report(report, htmlPath: request.htmlPath, htmlError: htmlError)
}
