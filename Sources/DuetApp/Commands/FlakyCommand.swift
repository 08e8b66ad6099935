import Foundation
import DuetCommandLine
import DuetSupport

/// `duet flaky`: lanes ranked by flaky evidence in the history window.
enum FlakyCommand: RankingCommand, JSONCommand {
  static let since = Option<Self, Double?>.duration(
    OptionSpec(name: "--since", value: "DURATION", help: "only runs newer than this, with a unit: 7d, 12h, 30m"))
  static let tests = Option<Self, Bool>.flag(
    OptionSpec(name: "--tests", help: "rank the test cases of the lanes' reports (reports: in the manifest), not the lanes"))
  static let testsVerb = "ranks"

  static let spec = CommandSpec(
    name: "flaky",
    summary: "rank the lanes that are flaky: one fingerprint with both a pass and a failure, or a retry that passed",
    usage: "duet flaky [--tests [--lane NAME]] [--last N] [--since DURATION] [--json]",
    options: [last.spec, since.spec, tests.spec, lane.spec, json.spec, root.spec],
    exitCodes: [0: "listed (a flaky lane does not fail the command)", 1: "the history is off or unreadable", 2: "a usage error"],
    examples: ["duet flaky --since 7d": "the lanes that flaked in the last week",
               "duet flaky --tests --lane kotlin": "the flaky test cases of the kotlin lane's JUnit reports (add --json for JSON)"]
  )

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    // A bare number is ambiguous here (7 what?), so the unit is required.
    if let text = try arguments[Self.since.raw], Double(text.trimmingCharacters(in: .whitespaces)) != nil {
      throw UsageError(message: "--since needs a unit: 7d, 12h or 30m, got '\(text)' (days, hours or minutes?)", command: "flaky")
    }
    let since = try arguments[Self.since]
    var request = FlakyRequest(ranking: try ranking(arguments))
    request.since = since
    return console.show(try flaky(request), json: try arguments[json])
  }
}
