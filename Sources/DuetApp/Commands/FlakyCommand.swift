import Foundation
import DuetCommandLine
import DuetSupport

/// `duet flaky`: lanes ranked by flaky evidence in the history window.
enum FlakyCommand: RankingCommand, JSONCommand {
  static let since = Option<Self, Double?>.duration(
    OptionSpec(name: "--since", value: "DURATION", help: "only runs newer than this, with a unit: 7d, 12h, 30m"))
    .checkingEach { text, command throws(UsageError) in
      // A bare number is ambiguous here (7 what?), so the unit is required.
      guard Double(text.trimmingCharacters(in: .whitespaces)) != nil else { return }
      throw UsageError(message: "--since needs a unit: 7d, 12h or 30m, got '\(text)' (days, hours or minutes?)", command: command)
    }
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

  /// `duet flaky`'s command line: the ranking, and how far back.
  struct Options {
    var ranking: RankingOptions
    var json: Bool
    /// `--since DURATION`, in seconds.
    var since: Double?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    return Options(ranking: try ranking(line), json: try line[json], since: try line[since])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = FlakyRequest(ranking: try options.ranking.request(call))
    request.since = options.since
    return call.console.show(try flaky(request), json: options.json)
  }
}
