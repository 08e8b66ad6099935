import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet logs LANE`: a lane's log from the last run in which it printed (or `--run ID`).
enum LogsCommand: Command {
  static let spec = CommandSpec(
    name: "logs",
    summary: "print a lane's log from the last run in which it printed (or from --run ID)",
    usage: "duet logs LANE [--run ID]",
    options: [
      OptionSpec(name: "--run", value: "ID", help: "a run id from duet history (the run or log id, or a prefix of it)"),
      CommandSpec.rootOption,
    ],
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

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let lane = arguments.positionals.first else { throw UsageError(message: "logs needs a lane name", command: "logs") }
    let root = try treeRoot(arguments)
    try KnownLane.check(lane, root: root, environment: arguments.invocation.environment, command: "logs")
    guard let store = try HistoryAccess.openForReading(arguments, command: "logs", console: console, json: false) else { return ExitCode.failed }
    var runs = try store.recentRuns(limit: 1000, lane: lane)
    if let wanted = arguments.value("--run") {
      runs = runs.filter { $0.id.hasPrefix(wanted) || $0.logID.hasPrefix(wanted) }
      guard !runs.isEmpty else { throw CommandFailure(message: "duet logs: error: no run '\(wanted)' with lane \(lane) in the history", code: ExitCode.failed) }
      runs = [runs[0]]
    }
    guard !runs.isEmpty else {
      throw CommandFailure(message: "duet logs: error: lane '\(lane)' has no recorded run", code: ExitCode.failed)
    }
    // The newest run (of those chosen) in which the lane printed something.
    var found: (path: String, logID: String)?
    for run in runs {
      let steps = try store.steps(ofRuns: [run.id]).filter { $0.lane == lane }
      if let path = steps.sorted(by: { $0.attempt < $1.attempt }).last(where: { $0.logPath != nil })?.logPath {
        found = (path, run.logID)
        break
      }
    }
    guard let (path, logID) = found else {
      let which = arguments.value("--run").map { "run \($0)" } ?? "any recorded run"
      throw CommandFailure(message: "duet logs: error: lane '\(lane)' left no log in \(which) (a lane that prints nothing, or was skipped or cached, has none)", code: ExitCode.failed)
    }
    let contents: Data?
    do {
      contents = try LogLocation.read(logPath: path, logID: logID, root: root)
    } catch {
      throw CommandFailure(message: "duet logs: error: \(store.path): \(error)", code: ExitCode.failed)
    }
    guard let data = contents else {
      throw CommandFailure(message: "duet logs: error: \(LogLocation.missingReason(logPath: path, logID: logID, root: root))", code: ExitCode.failed)
    }
    console.bytes(data)
    return ExitCode.pass
  }
}
