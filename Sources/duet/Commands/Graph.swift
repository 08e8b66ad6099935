import Foundation
import DuetApp
import DuetSupport

/// `duet graph`: the lane DAG as Graphviz DOT or a Mermaid flowchart.
enum GraphCommand: TreeCommand {
  static let format = Option<Self, String?>.text(
    OptionSpec(name: "--format", value: "FORMAT", help: "dot (default) or mermaid", completes: .words(GraphRequest.formats)))

  static let spec = CommandSpec(
    name: "graph",
    summary: "print the lane DAG as Graphviz DOT or a Mermaid flowchart, for docs and reviews",
    usage: "duet graph [--format dot|mermaid] [--root DIR]",
    options: [format.spec, root.spec],
    details: "an arrow runs from a lane to each lane that needs it",
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "printed"),
      ExitCodeDoc(code: 2, meaning: "a usage or manifest error"),
    ],
    examples: [
      HelpExample(command: "duet graph | dot -Tsvg > lanes.svg", what: "draw the lane DAG with Graphviz"),
      HelpExample(command: "duet graph --format mermaid", what: "a Mermaid flowchart to paste into a Markdown file"),
    ]
  )

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let format = try arguments[Self.format] ?? "dot"
    try GraphRequest.checkFormat(format)
    return console.show(try graph(GraphRequest(root: try treeRoot(arguments), format: format)))
  }
}
