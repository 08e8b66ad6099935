import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet mocks`: imprint each generated mock with the fingerprints of its inputs
/// and body; `--check` writes nothing and says which mock files drifted.
enum MocksCommand: Command {
  static let spec = CommandSpec(
    name: "mocks",
    summary: "fingerprint each generated mock's inputs and body; --check reports drift and writes nothing",
    usage: "duet mocks [--check] [--accept-body] [--json] [--root DIR]",
    options: [
      OptionSpec(name: "--check", value: nil, help: "write nothing; exit 1 if a mock file is stale"),
      OptionSpec(name: "--accept-body", value: nil, help: "keep a body edited by hand (or after an unreadable block) and imprint it"),
      CommandSpec.jsonOption,
      CommandSpec.rootOption,
    ],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "up to date (or written)"),
      ExitCodeDoc(code: 1, meaning: "stale (--check), or a hand-edited body refused"),
      ExitCodeDoc(code: 2, meaning: "an error: an unreadable file, a missing source root, the manifest"),
    ],
    examples: [
      HelpExample(command: "duet mocks", what: "imprint every mock file of the manifest's mocks: after regenerating them"),
      HelpExample(command: "duet mocks --check", what: "say which mock files drifted; write nothing"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let check = arguments.flag("--check")
    if check && arguments.flag("--accept-body") {
      throw UsageError(message: "--accept-body writes files; it cannot go with --check", command: "mocks")
    }
    let root = try treeRoot(arguments)
    let manifest = try loadManifest(root: root)
    let json = arguments.flag("--json")

    if check {
      let report = MockCheck.run(manifest, root: root)
      if json {
        console.out(jsonText(MockCheckJSON(report)))
      } else {
        console.diagnostics(report.errors.map(\.diagnostic))
        for line in report.lines { console.out(line) }
      }
      return report.exitCode
    }

    var options = MockImprint.Options()
    options.acceptBody = arguments.flag("--accept-body")
    let report = MockImprint.run(manifest, root: root, options: options)
    if json {
      console.out(jsonText(MockImprintJSON(report)))
    } else {
      console.diagnostics(report.errors.map(\.diagnostic))
      for refusal in report.refused { console.err(refusal.line) }
      for line in report.lines { console.out(line) }
    }
    return report.exitCode
  }
}
