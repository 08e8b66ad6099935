import Foundation
import DuetCommandLine
import DuetSupport

/// `duet stats`: per-lane runs, pass rate, durations and a slowdown flag.
enum StatsCommand: RankingCommand, JSONCommand {
  static let tests = Option<Self, Bool>.flag(
    OptionSpec(name: "--tests", help: "per test case of the lanes' reports (reports: in the manifest): runs, pass rate, p50/p95/max"))
  static let testsVerb = "lists"

  static let spec = CommandSpec(
    name: "stats",
    summary: "per lane: runs, pass rate, p50/p95/max duration, and 'slower' when it is getting slow",
    usage: "duet stats [--tests [--lane NAME]] [--last N] [--json]",
    options: [last.spec, tests.spec, lane.spec, json.spec, root.spec],
    details: "slower: the median of a lane's last 5 runs is over 1.5x the median of the 20 runs before them",
    exitCodes: [0: "listed", 1: "the history is off or unreadable", 2: "a usage error"],
    examples: ["duet stats": "per lane: runs, pass rate, p50/p95/max and a slowdown flag",
               "duet stats --tests --lane kotlin --json": "per test of the kotlin lane's reports, as JSON"]
  )

  /// `duet stats`'s command line: the ranking.
  struct Options {
    var ranking: RankingOptions
    var json: Bool
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    Options(ranking: try ranking(line), json: try line[json])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.show(try stats(try options.ranking.request(call)), json: options.json)
  }
}
