import Foundation
import DuetCommandLine
import DuetSupport

/// `duet graph`: the lane DAG as Graphviz DOT or a Mermaid flowchart.
enum GraphCommand: TreeCommand {
  static let format = Option<Self, String?>.text(
    OptionSpec(name: "--format", value: "FORMAT", help: "dot (default) or mermaid", completes: .words(GraphRequest.formats)))
    .checkingEach { format, _ throws(UsageError) in try GraphRequest.checkFormat(format) }

  static let spec = CommandSpec(
    name: "graph",
    summary: "print the lane DAG as Graphviz DOT or a Mermaid flowchart, for docs and reviews",
    usage: "duet graph [--format dot|mermaid] [--root DIR]",
    options: [format.spec, root.spec],
    details: "an arrow runs from a lane to each lane that needs it",
    exitCodes: [0: "printed", 2: "a usage or manifest error"],
    examples: ["duet graph | dot -Tsvg > lanes.svg": "draw the lane DAG with Graphviz",
               "duet graph --format mermaid": "a Mermaid flowchart to paste into a Markdown file"]
  )

  /// `duet graph`'s command line: the format, one duet draws.
  struct Options {
    var root: String?
    var format: String
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    Options(root: try line[root], format: try line[format] ?? "dot")
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.show(try graph(GraphRequest(root: try call.treeRoot(options.root), format: options.format)))
  }
}
