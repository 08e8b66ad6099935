import Foundation
import DuetCommandLine
import DuetSupport

/// `duet mocks`: imprint each generated mock with the fingerprints of its inputs
/// and body; `--check` writes nothing and says which mock files drifted.
enum MocksCommand: TreeCommand, JSONCommand {
  static let check = Option<Self, Bool>.flag(OptionSpec(name: "--check", value: nil, help: "write nothing; exit 1 if a mock file is stale"))
  static let acceptBody = Option<Self, Bool>.flag(
    OptionSpec(name: "--accept-body", value: nil, help: "keep a body edited by hand (or after an unreadable block) and imprint it"))

  static let spec = CommandSpec(
    name: "mocks",
    summary: "fingerprint each generated mock's inputs and body; --check reports drift and writes nothing",
    usage: "duet mocks [--check] [--accept-body] [--json] [--root DIR]",
    options: [check.spec, acceptBody.spec, json.spec, root.spec],
    exitCodes: [0: "up to date (or written)", 1: "stale (--check), or a hand-edited body refused",
                2: "an error: an unreadable file, a missing source root, the manifest"],
    examples: ["duet mocks": "imprint every mock file of the manifest's mocks: after regenerating them",
               "duet mocks --check": "say which mock files drifted; write nothing"]
  )

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    if try arguments[check] && arguments[acceptBody] {
      throw UsageError(message: "--accept-body writes files; it cannot go with --check", command: "mocks")
    }
    var request = MocksRequest(root: try treeRoot(arguments), environment: arguments.invocation.environment)
    request.check = try arguments[check]
    request.acceptBody = try arguments[acceptBody]
    return console.show(try mocks(request), json: try arguments[json])
  }
}
