import Foundation
import DuetCommandLine
import DuetSupport

/// `duet trace [RUN]`: a recorded run as Chrome Trace Event JSON, for Perfetto.
enum TraceCommand: TreeCommand {
  static let html = Option<Self, String?>.file(
    OptionSpec(name: "--html", value: "FILE", help: "write the slices as one HTML page to FILE (no network needed) instead of printing the JSON"))

  static let spec = CommandSpec(
    name: "trace",
    summary: "print a recorded run as Chrome Trace Event JSON (one track per job slot), which Perfetto opens",
    usage: "duet trace [RUN] [--html FILE]",
    options: [html.spec, root.spec],
    details: "RUN: a run id from duet history (the run or log id, or a prefix of it); default: the newest run\nopen the file at https://ui.perfetto.dev or chrome://tracing, or write a page with --html FILE",
    exitCodes: [0: "printed (or the page written)", 1: "no such run, the history is off or unreadable, or the page cannot be written",
                2: "a usage error"],
    examples: ["duet trace > run.json": "the newest run, for ui.perfetto.dev",
               "duet trace 20261202-185518 --html trace.html": "a run duet history lists, as a page that needs no network"]
  )
  static let maxPositionals = 1

  /// `duet trace`'s command line: the run, and the page to write.
  struct Options {
    var root: String?
    var run: String?
    /// `--html FILE` as an absolute path.
    var htmlPath: String?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    Options(root: try line[root], run: line.positionals.first, htmlPath: try filePath(line[html], option: "--html", line))
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = TraceRequest(root: try call.treeRoot(options.root), environment: call.environment)
    request.run = options.run
    request.htmlPath = options.htmlPath
    return call.console.show(try trace(request))
  }
}
