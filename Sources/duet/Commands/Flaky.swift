import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetOutput
import DuetSupport

/// `duet flaky`: lanes ranked by flaky evidence in the history window.
enum FlakyCommand: Command {
  static let spec = CommandSpec(
    name: "flaky",
    summary: "rank the lanes that are flaky: one fingerprint with both a pass and a failure, or a retry that passed",
    usage: "duet flaky [--last N] [--since DURATION] [--json]",
    options: [
      HistoryAccess.lastOption,
      OptionSpec(name: "--since", value: "DURATION", help: "only runs newer than this, with a unit: 7d, 12h, 30m"),
      CommandSpec.jsonOption,
      CommandSpec.rootOption,
    ],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "listed (a flaky lane does not fail the command)"),
      ExitCodeDoc(code: 1, meaning: "the history is off or unreadable"),
      ExitCodeDoc(code: 2, meaning: "a usage error"),
    ],
    examples: [
      HelpExample(command: "duet flaky --since 7d", what: "the lanes that flaked in the last week"),
      HelpExample(command: "duet flaky --json", what: "the same, as JSON"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let json = arguments.flag("--json")
    let last = try arguments.positiveInt("--last", command: "flaky") ?? 500
    // A bare number is ambiguous here (7 what?), so the unit is required.
    if let text = arguments.value("--since"), Double(text.trimmingCharacters(in: .whitespaces)) != nil {
      throw UsageError(message: "--since needs a unit: 7d, 12h or 30m, got '\(text)' (days, hours or minutes?)", command: "flaky")
    }
    let since = try arguments.duration("--since", command: "flaky")
    guard let store = try HistoryAccess.openForReading(arguments, command: "flaky", console: console, json: json) else { return ExitCode.pass }
    let now = Date().timeIntervalSince1970
    let report = try FlakyReport.compute(store: store, last: last, since: since.map { now - $0 }, now: now)
    if json {
      console.out(jsonText(FlakyJSON(report)))
      return ExitCode.pass
    }
    console.out("duet flaky: \(report.runsInWindow) run(s) in the window; \(FlakyReport.definition)")
    let header = ["lane", "runs", "failures", "flaky fingerprints", "flips", "retries passed", "last seen"]
    func rows(_ entries: [FlakyReport.Entry]) -> [[String]] {
      entries.map { [$0.lane, String($0.runs), String($0.failures), String($0.flakyFingerprints), String($0.flips), String($0.retriesPassed), HistoryAccess.time($0.lastSeen)] }
    }
    if report.flaky.isEmpty {
      console.out("no flaky lanes")
    } else {
      for line in TextTable(header: header, rows: rows(report.flaky)).lines(maxWidth: console.width) { console.out("  " + line) }
    }
    if !report.recovered.isEmpty {
      console.out("recovered (no flaky evidence for 7 days):")
      for line in TextTable(header: header, rows: rows(report.recovered)).lines(maxWidth: console.width) { console.out("  " + line) }
    }
    return ExitCode.pass
  }
}
