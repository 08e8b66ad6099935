import DuetRun
import DuetOutput
import DuetSupport
import Foundation
import DuetHistory

/// `duet flaky`: the lanes ranked by flaky evidence in the history window.
struct FlakyRequest: Sendable {
  /// The window, and lanes or tests.
  var ranking: RankingRequest
  /// `--since DURATION`, in seconds back from `now`.
  var since: Double?
  var now = Date().timeIntervalSince1970
  init(ranking: RankingRequest) {
    self.ranking = ranking
  }

  init(root: URL, environment: [String: String]) {
    self.init(ranking: RankingRequest(root: root, environment: environment))
  }
}

enum FlakyResponse: CommandResponse {
  case noHistory(NoHistory)
  case report(FlakyReport)
  case tests(TestFlakyReport)

  var exitCode: Int32 { ExitCode.pass }

  func printout(_ format: TextFormat) -> Printout {
    let report: FlakyReport
    switch self {
    case .noHistory(let none): return none.printout(json: format.json)
    case .report(let found): report = found
    case .tests(let found): return FlakyResponse.printout(found, format)
    }
    var printout = Printout()
    if format.json {
      printout.json(ReportJSON.text(FlakyJSON(report)))
      return printout
    }
    printout.out("duet flaky: \(report.runsInWindow) run(s) in the window; \(FlakyReport.definition)")
    // Runs from more than one place (pulled from the team): say which, and where each lane failed.
    let team = report.origins.count > 1
    if team { printout.out("runs from: \(OriginTally.words(report.origins))") }
    let header = FlakyReport.tableHeader(team: team)
    func rows(_ entries: [FlakyReport.Entry]) -> [[TerminalLine]] { FlakyReport.tableRows(entries, team: team, time: HistoryAccess.time) }
    if report.flaky.isEmpty {
      printout.out("no flaky lanes")
    } else {
      printout.table(TextTable(header: header, rows: rows(report.flaky)), width: format.width)
    }
    if !report.recovered.isEmpty {
      printout.out("recovered (no flaky evidence for 7 days):")
      printout.table(TextTable(header: header, rows: rows(report.recovered)), width: format.width)
    }
    return printout
  }
}

func flaky(_ request: FlakyRequest) throws -> FlakyResponse {
  let (ranking, since) = (request.ranking, request.since.map { request.now - $0 })
  switch try ranking.open(command: "flaky") {
  case .none(let none): return .noHistory(none)
  case .store(let store) where ranking.tests:
    return .tests(try TestFlakyReport.compute(store: store, last: ranking.last, since: since, lane: ranking.lane, now: request.now))
  case .store(let store):
    return .report(try FlakyReport.compute(store: store, last: ranking.last, since: since, now: request.now))
  }
}

extension FlakyResponse {
  /// `duet flaky --tests`: one line per test in words (a test's full name is too
  /// long for a table column), its newest failure's first line under it.
  static func printout(_ report: TestFlakyReport, _ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json {
      printout.json(ReportJSON.text(TestFlakyJSON(report)))
      return printout
    }
    printout.out("duet flaky --tests: \(report.runsInWindow) run(s) in the window; \(TestFlakyReport.definition)")
    if report.origins.count > 1 { printout.out("runs from: \(OriginTally.words(report.origins))") }
    func describe(_ entry: TestFlakyReport.Entry) { entry.lines(time: HistoryAccess.time).forEach { printout.out($0) } }
    if report.flaky.isEmpty { printout.out("no flaky tests") }
    report.flaky.forEach(describe)
    if !report.recovered.isEmpty {
      printout.out("recovered (no flaky evidence for 7 days):")
      report.recovered.forEach(describe)
    }
    return printout
  }
}
