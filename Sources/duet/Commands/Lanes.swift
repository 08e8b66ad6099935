import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetOutput
import DuetSupport

/// `duet lanes`: the manifest's lanes in run order and the modules no lane covers.
enum LanesCommand: Command {
  static let spec = CommandSpec(
    name: "lanes",
    summary: "list the lanes of lanes/manifest.yaml (or those derived from parity/manifest.yaml) in run order, and the modules no lane covers",
    usage: "duet lanes [--root DIR] [--json]",
    options: [CommandSpec.rootOption, CommandSpec.jsonOption],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "listed"),
      ExitCodeDoc(code: 2, meaning: "a usage or manifest error"),
    ],
    examples: [
      HelpExample(command: "duet lanes", what: "the lanes in run order, then the modules no lane covers"),
      HelpExample(command: "duet lanes --json | jq -r '.lanes[].name'", what: "the lane names, one a line"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let root = try treeRoot(arguments)
    let tree = try loadTree(root: root)
    let report = LanesJSON(tree, modules: ModuleDiscovery.discover(root: root, manifest: tree.manifest))
    if arguments.flag("--json") {
      console.out(jsonText(report))
      return ExitCode.pass
    }

    if report.derived { console.out(DerivedLanes.notice(report.manifest)) }
    console.out("\(report.manifest): \(report.lanes.count) \(report.derived ? "derived lane(s)" : "lane(s)"), in run order")
    if !report.lanes.isEmpty {
      let rows = report.lanes.map { lane -> [String] in
        [
          lane.name,
          lane.kind == "builtin" ? "built-in" : "sh",
          lane.needs.isEmpty ? "-" : lane.needs.joined(separator: ","),
          lane.timeoutSeconds.map(DurationText.formatTimeout) ?? "default",
          String(lane.retries),
          lane.command,
        ]
      }
      let table = TextTable(header: ["lane", "step", "needs", "timeout", "retries", "command"], rows: rows)
      for line in table.lines(maxWidth: console.width) { console.out("  " + line) }
    }
    let outside = report.outside
    if outside.isEmpty {
      console.out("outside the manifest: none (every module is covered by a lane)")
    } else {
      console.out("outside the manifest (\(outside.count) module(s) no lane covers):")
      let rows = outside.map { [$0.path, $0.foundBy.joined(separator: ", ")] }
      for line in TextTable(header: nil, rows: rows).lines(maxWidth: console.width) { console.out("  " + line) }
    }
    return ExitCode.pass
  }
}
