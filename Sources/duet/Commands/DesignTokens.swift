import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet design-tokens`: writes the Swift and Kotlin token files from
/// `parity/design-tokens.yaml`, or with `--check` proves they are up to date.
enum DesignTokensCommand: Command {
  static let spec = CommandSpec(
    name: "design-tokens",
    summary: "generate the Swift and Kotlin token files from parity/design-tokens.yaml, or --check them",
    usage: "duet design-tokens [--check | --rewrite] [--config FILE] [--root DIR] [--json]",
    options: [
      OptionSpec(name: "--check", value: nil, help: "regenerate in memory and compare; write nothing, exit 1 on drift"),
      OptionSpec(
        name: "--rewrite", value: nil,
        help: "also rewrite, in duet's layout, files the Duet toolchain's engine wrote whose code is current"),
    ]
      + TokenConfigChoice.options + [CommandSpec.jsonOption],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "written or up to date"),
      ExitCodeDoc(code: 1, meaning: "--check found stale, missing or orphaned files"),
      ExitCodeDoc(code: 2, meaning: "a usage or config error"),
    ],
    examples: [
      HelpExample(command: "duet design-tokens", what: "regenerate the Swift and Kotlin token files after editing parity/design-tokens.yaml"),
      HelpExample(command: "duet design-tokens --check", what: "fail (exit 1) when a generated file is stale, as a lane does"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let choice = try TokenConfigChoice.resolve(arguments, command: "design-tokens", console: console) else {
      return ExitCode.usage
    }
    if arguments.flag("--check") && arguments.flag("--rewrite") {
      console.err("duet design-tokens: error: --check writes nothing, so it cannot --rewrite; pass one of them")
      return ExitCode.usage
    }
    let outcome = DesignTokens.run(
      root: choice.root, configPath: choice.configPath, configURL: choice.configURL, explicit: choice.configURL != nil,
      check: arguments.flag("--check"), rewrite: arguments.flag("--rewrite"))
    if arguments.flag("--json") {
      console.out(outcome.json)
      if case .failure(let diagnostics, _, _) = outcome { console.diagnostics(diagnostics) }
    } else if case .failure(let diagnostics, _, _) = outcome {
      console.diagnostics(diagnostics)
    } else {
      console.out(outcome.text)
    }
    return outcome.exitCode
  }
}
