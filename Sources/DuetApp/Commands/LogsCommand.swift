import Foundation
import DuetCommandLine
import DuetSupport

/// `duet logs LANE`: a lane's log from the last run in which it printed (or `--run ID`).
enum LogsCommand: TreeCommand {
  static let run = Option<Self, String?>.text(
    OptionSpec(name: "--run", value: "ID", help: "a run id from duet history (the run or log id, or a prefix of it)"))

  static let spec = CommandSpec(
    name: "logs",
    summary: "print a lane's log from the last run in which it printed (or from --run ID)",
    usage: "duet logs LANE [--run ID]",
    options: [run.spec, root.spec],
    positionals: [.lanes],
    exitCodes: [0: "printed", 1: "the lane has no recorded run or log, or the log is gone",
                2: "a usage error, or a lane neither the manifest nor the history knows"],
    examples: ["duet logs kotlin": "the kotlin lane's log from the last run in which it printed",
               "duet logs kotlin --run 20261202-185518": "its log from one run that duet history lists (a prefix of the id is enough)"]
  )
  static let maxPositionals = 1
  static let readsRecordedLanes = true

  /// `duet logs`'s command line: the lane, and the run to read.
  struct Options {
    var root: String?
    var lane: String
    var run: String?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    guard let lane = line.positionals.first else { throw UsageError(message: "logs needs a lane name", command: "logs") }
    return Options(root: try line[root], lane: lane, run: try line[Self.run])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = LogsRequest(root: try call.treeRoot(options.root), environment: call.environment, lane: options.lane)
    request.run = options.run
    return call.console.show(try logs(request))
  }
}
