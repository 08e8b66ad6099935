import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
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
    let manifest = tree.manifest
    let order = manifest.graph.runOrder()
    let modules = ModuleDiscovery.discover(root: root, manifest: manifest)
    let outside = modules.filter { $0.coveredBy.isEmpty }

    if arguments.flag("--json") {
      printJSON(tree, order: order, modules: modules, outside: outside, console: console)
    } else {
      printText(tree, order: order, outside: outside, console: console)
    }
    return ExitCode.pass
  }

  /// The same listing as one JSON object.
  static func printJSON(_ tree: TreeManifest, order: [Int], modules: [Module], outside: [Module], console: Console) {
    let manifest = tree.manifest
    let lanes: [[String: Any]] = order.map { index in
      let lane = manifest.lanes[index]
      var entry: [String: Any] = [
        "name": lane.name,
        "kind": lane.isBuiltin ? "builtin" : "sh",
        "command": lane.commandText,
        "needs": lane.needs,
        "inputs": lane.inputs,
        "covers": lane.covers,
        "requires": lane.requires,
        "retries": lane.retries,
      ]
      entry["timeoutSeconds"] = lane.timeout ?? NSNull()
      entry["dir"] = lane.dir ?? NSNull()
      entry["pool"] = lane.pool ?? NSNull()
      entry["platforms"] = lane.platforms.map { $0.map(\.rawValue) } ?? NSNull()
      return entry
    }
    let moduleList: [[String: Any]] = modules.map { ["path": $0.path, "foundBy": $0.foundBy, "coveredBy": $0.coveredBy] }
    console.out(jsonText([
      "manifest": manifest.path,
      "derived": tree.isDerived,
      "lanes": lanes,
      "modules": moduleList,
      "outsideManifest": outside.map(\.path),
    ]))
  }

  /// The lanes as a table in run order, then the modules no lane covers.
  static func printText(_ tree: TreeManifest, order: [Int], outside: [Module], console: Console) {
    let manifest = tree.manifest
    if tree.isDerived { console.out(DerivedLanes.notice) }
    console.out("\(manifest.path): \(manifest.lanes.count) \(tree.isDerived ? "derived lane(s)" : "lane(s)"), in run order")
    if !order.isEmpty {
      let rows = order.map { index -> [String] in
        let lane = manifest.lanes[index]
        let timeout = lane.timeout.map(DurationText.formatTimeout) ?? "default"
        return [
          lane.name,
          lane.isBuiltin ? "built-in" : "sh",
          lane.needs.isEmpty ? "-" : lane.needs.joined(separator: ","),
          timeout,
          String(lane.retries),
          lane.commandText,
        ]
      }
      let table = TextTable(header: ["lane", "step", "needs", "timeout", "retries", "command"], rows: rows)
      for line in table.lines(maxWidth: console.width) { console.out("  " + line) }
    }
    if outside.isEmpty {
      console.out("outside the manifest: none (every module is covered by a lane)")
    } else {
      console.out("outside the manifest (\(outside.count) module(s) no lane covers):")
      let rows = outside.map { [$0.path, $0.foundBy.joined(separator: ", ")] }
      for line in TextTable(header: nil, rows: rows).lines(maxWidth: console.width) { console.out("  " + line) }
    }
  }
}
