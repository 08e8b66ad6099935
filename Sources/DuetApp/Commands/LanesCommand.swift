import Foundation
import DuetCommandLine
import DuetSupport

/// `duet lanes`: the manifest's lanes in run order and the modules no lane covers.
enum LanesCommand: TreeCommand, JSONCommand {
  static let spec = CommandSpec(
    name: "lanes",
    summary: "list the lanes of lanes/manifest.yaml (or those derived from parity/manifest.yaml) in run order, and the modules no lane covers",
    usage: "duet lanes [--root DIR] [--json]",
    options: [root.spec, json.spec],
    exitCodes: [0: "listed", 2: "a usage or manifest error"],
    examples: ["duet lanes": "the lanes in run order, then the modules no lane covers",
               "duet lanes --json | jq -r '.lanes[].name'": "the lane names, one a line"]
  )

  /// `duet lanes`'s command line.
  struct Options {
    var root: String?
    var json: Bool
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    Options(root: try line[root], json: try line[json])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.show(try lanes(LanesRequest(root: try call.treeRoot(options.root))), json: options.json)
  }
}
