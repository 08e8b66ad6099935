import Foundation
import DuetApp
import DuetSupport

/// `duet trace [RUN]`: a recorded run as Chrome Trace Event JSON, for Perfetto.
enum TraceCommand: TreeCommand {
  static let spec = CommandSpec(
    name: "trace",
    summary: "print a recorded run as Chrome Trace Event JSON (one track per job slot), which Perfetto opens",
    usage: "duet trace [RUN]",
    options: [root.spec],
    details: "RUN: a run id from duet history (the run or log id, or a prefix of it); default: the newest run\nopen the file at https://ui.perfetto.dev or chrome://tracing",
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "printed"),
      ExitCodeDoc(code: 1, meaning: "no such run, or the history is off or unreadable"),
      ExitCodeDoc(code: 2, meaning: "a usage error"),
    ],
    examples: [
      HelpExample(command: "duet trace > run.json", what: "the newest run, for ui.perfetto.dev"),
      HelpExample(command: "duet trace 20261202-185518", what: "one run that duet history lists"),
    ]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    var request = TraceRequest(root: try treeRoot(arguments), environment: arguments.invocation.environment)
    request.run = arguments.positionals.first
    return console.show(try trace(request))
  }
}
