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

  /// `duet mocks`'s command line.
  struct Options {
    var root: String?
    var json: Bool
    var check: Bool
    var acceptBody: Bool
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    let options = Options(root: try line[root], json: try line[json], check: try line[check], acceptBody: try line[acceptBody])
    if options.check && options.acceptBody {
      throw UsageError(message: "--accept-body writes files; it cannot go with --check", command: "mocks")
    }
    return options
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = MocksRequest(root: try call.treeRoot(options.root), environment: call.environment)
    request.check = options.check
    request.acceptBody = options.acceptBody
    return call.console.show(try mocks(request), json: options.json)
  }
}
