import DuetRun
import DuetOutput
import DuetSupport
import Foundation
import DuetHistory

enum StatsResponse: CommandResponse {
  case noHistory(NoHistory)
  case report(StatsReport)
  case tests(TestStatsReport)

  var exitCode: Int32 { ExitCode.pass }

  func printout(_ format: TextFormat) -> Printout {
    let report: StatsReport
    switch self {
    case .noHistory(let none): return none.printout(json: format.json)
    case .report(let found): report = found
    case .tests(let found): return StatsResponse.printout(found, format)
    }
    var printout = Printout()
    if format.json {
      printout.json(ReportJSON.text(StatsJSON(report)))
      return printout
    }
    printout.out("duet stats: \(report.runsInWindow) run(s) in the window")
    if report.origins.count > 1 { printout.out("runs from: \(OriginTally.words(report.origins))") }
    printout.table(TextTable(header: StatsReport.tableHeader, rows: report.tableRows), width: format.width)
    return printout
  }
}

func stats(_ request: StatsRequest) throws -> StatsResponse {
  switch try request.open(command: "stats") {
  case .none(let none): return .noHistory(none)
  case .store(let store) where request.tests: return .tests(try TestStatsReport.compute(store: store, last: request.last, lane: request.lane))
  case .store(let store): return .report(try StatsReport.compute(store: store, last: request.last))
  }
}

extension StatsResponse {
  /// `duet stats --tests`: a row per test; the test's full name comes last, so
  /// a narrow terminal cuts it rather than the figures.
  static func printout(_ report: TestStatsReport, _ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json {
      printout.json(ReportJSON.text(TestStatsJSON(report)))
      return printout
    }
    printout.out("duet stats --tests: \(report.runsInWindow) run(s) in the window")
    if report.entries.isEmpty {
      printout.out("no test cases recorded (a lane's reports: in lanes/manifest.yaml names its JUnit XML)")
      return printout
    }
    printout.table(TextTable(header: TestStatsReport.tableHeader, rows: report.tableRows), width: format.width)
    return printout
  }
}
