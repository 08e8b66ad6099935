import Foundation
import DuetCommandLine
import DuetSupport

/// `duet design-tokens`: writes the Swift and Kotlin token files from
/// `parity/design-tokens.yaml`, or with `--check` proves they are up to date.
enum DesignTokensCommand: TokenConfigCommand, JSONCommand {
  static let check = Option<Self, Bool>.flag(
    OptionSpec(name: "--check", value: nil, help: "regenerate in memory and compare; write nothing, exit 1 on drift"))
  static let rewrite = Option<Self, Bool>.flag(
    OptionSpec(
      name: "--rewrite", value: nil,
      help: "also rewrite, in duet's layout, files the Duet toolchain's engine wrote whose code is current"))

  static let spec = CommandSpec(
    name: "design-tokens",
    summary: "generate the Swift and Kotlin token files from parity/design-tokens.yaml, or --check them",
    usage: "duet design-tokens [--check | --rewrite] [--config FILE] [--root DIR] [--json]",
    options: [check.spec, rewrite.spec] + tokenConfigOptions + [json.spec],
    exitCodes: [0: "written or up to date", 1: "--check found stale, missing or orphaned files", 2: "a usage or config error"],
    examples: ["duet design-tokens": "regenerate the Swift and Kotlin token files after editing parity/design-tokens.yaml",
               "duet design-tokens --check": "fail (exit 1) when a generated file is stale, as a lane does"]
  )

  /// `duet design-tokens`'s command line: check or write, and which config.
  struct Options {
    var config: TokenConfigOptions
    var json: Bool
    var check: Bool
    var rewrite: Bool
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    let options = Options(config: try tokenConfig(line), json: try line[json], check: try line[check], rewrite: try line[rewrite])
    // Refused with the line, before the token file is looked for.
    if options.check && options.rewrite {
      throw UsageError(message: "--check writes nothing, so it cannot --rewrite; pass one of them", command: "design-tokens")
    }
    return options
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = DesignTokensRequest(config: try options.config.resolve(call))
    request.check = options.check
    request.rewrite = options.rewrite
    return call.console.show(designTokens(request), json: options.json)
  }
}
