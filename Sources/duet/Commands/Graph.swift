import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet graph`: the lane DAG as Graphviz DOT or a Mermaid flowchart.
enum GraphCommand: Command {
  static let spec = CommandSpec(
    name: "graph",
    summary: "print the lane DAG as Graphviz DOT or a Mermaid flowchart, for docs and reviews",
    usage: "duet graph [--format dot|mermaid] [--root DIR]",
    options: [
      OptionSpec(name: "--format", value: "FORMAT", help: "dot (default) or mermaid", completes: .words(GraphRender.Format.allCases.map(\.rawValue))),
      CommandSpec.rootOption,
    ],
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

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let name = arguments.value("--format") ?? "dot"
    guard let format = GraphRender.Format(rawValue: name) else {
      let names = GraphRender.Format.allCases.map(\.rawValue)
      throw UsageError(message: "--format must be dot or mermaid, got '\(name)'\(Suggestion.hint(for: name, in: names))", command: "graph")
    }
    let root = try treeRoot(arguments)
    let manifest = try loadManifest(root: root)
    console.raw(GraphRender.render(manifest.graph, format: format))
    return ExitCode.pass
  }
}
