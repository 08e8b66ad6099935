import Foundation
import DuetCommandLine
import DuetSupport

/// `duet report`: the history's trends per lane, the flaky map, cache hits and failed runs.
enum ReportCommand: HistoryWindowCommand, TreeCommand {
  static let html = Option<Self, String?>.file(
    OptionSpec(name: "--html", value: "FILE", help: "also write the report as one HTML page (charts, the flaky map) to FILE"))

  static let spec = CommandSpec(
    name: "report",
    summary: "the history's trends: per lane p50/p95 with a sparkline, cache hits, flaky lanes, the runs that failed (--html FILE: a page)",
    usage: "duet report [--last N] [--html FILE]",
    options: [last.spec, html.spec, root.spec],
    details: "read in one pass over the store; the flaky map shows the newest 60 runs of the window",
    exitCodes: [0: "reported", 1: "the history is off or unreadable, or the page cannot be written", 2: "a usage error"],
    examples: ["duet report": "per lane: runs, p50, p95, a sparkline, cached, failed runs",
               "duet report --last 200 --html report.html": "the last 200 runs, and a page to open in a browser"]
  )

  /// `duet report`'s command line: the window, and the page to write.
  struct Options {
    var root: String?
    var last: Int
    /// `--html FILE` as an absolute path.
    var htmlPath: String?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    Options(root: try line[root], last: try line[last] ?? 500, htmlPath: try filePath(line[html], option: "--html", line))
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = ReportRequest(root: try call.treeRoot(options.root), environment: call.environment)
    request.last = options.last
    request.htmlPath = options.htmlPath
    return call.console.show(try report(request))
  }
}
