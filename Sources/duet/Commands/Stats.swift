import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetOutput
import DuetSupport

/// `duet stats`: per-lane runs, pass rate, durations and a slowdown flag.
enum StatsCommand: Command {
  static let spec = CommandSpec(
    name: "stats",
    summary: "per lane: runs, pass rate, p50/p95/max duration, and 'slower' when it is getting slow",
    usage: "duet stats [--last N] [--json]",
    options: [HistoryAccess.lastOption, CommandSpec.jsonOption, CommandSpec.rootOption],
    details: "slower: the median of a lane's last 5 runs is over 1.5x the median of the 20 runs before them",
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "listed"),
      ExitCodeDoc(code: 1, meaning: "the history is off or unreadable"),
      ExitCodeDoc(code: 2, meaning: "a usage error"),
    ],
    examples: [
      HelpExample(command: "duet stats", what: "per lane: runs, pass rate, p50/p95/max and a slowdown flag"),
      HelpExample(command: "duet stats --last 50 --json", what: "the same over the last 50 runs, as JSON"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let json = arguments.flag("--json")
    let last = try arguments.positiveInt("--last", command: "stats") ?? 500
    guard let store = try HistoryAccess.openForReading(arguments, command: "stats", console: console, json: json) else { return ExitCode.pass }
    let report = try StatsReport.compute(store: store, last: last)
    if json {
      console.out(jsonText(StatsJSON(report)))
      return ExitCode.pass
    }
    console.out("duet stats: \(report.runsInWindow) run(s) in the window")
    let rows = report.entries.map { entry -> [String] in
      [entry.lane, String(entry.runs), String(format: "%.0f%%", entry.passRate * 100), DurationText.format(entry.p50),
       DurationText.format(entry.p95), DurationText.format(entry.max),
       entry.slower ? String(format: "slower (%.1fx)", entry.slowdown ?? 0) : ""]
    }
    for line in TextTable(header: ["lane", "runs", "pass rate", "p50", "p95", "max", "trend"], rows: rows).lines(maxWidth: console.width) {
      console.out("  " + line)
    }
    return ExitCode.pass
  }
}
