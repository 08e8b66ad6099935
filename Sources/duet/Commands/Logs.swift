import Foundation
import DuetApp
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
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "printed"),
      ExitCodeDoc(code: 1, meaning: "the lane has no recorded run or log, or the log is gone"),
      ExitCodeDoc(code: 2, meaning: "a usage error, or a lane neither the manifest nor the history knows"),
    ],
    examples: [
      HelpExample(command: "duet logs kotlin", what: "the kotlin lane's log from the last run in which it printed"),
      HelpExample(command: "duet logs kotlin --run 20261202-185518", what: "its log from one run that duet history lists (a prefix of the id is enough)"),
    ]
  )
  static let maxPositionals = 1
  static let readsRecordedLanes = true

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    guard let lane = arguments.positionals.first else { throw UsageError(message: "logs needs a lane name", command: "logs") }
    var request = LogsRequest(root: try treeRoot(arguments), environment: arguments.invocation.environment, lane: lane)
    request.run = try arguments[Self.run]
    return console.show(try logs(request))
  }
}
