import Foundation
import DuetCommandLine
import DuetSupport

/// `duet theme-test`: every label on every surface of `parity/design-tokens.yaml`,
/// per theme and appearance, at the theme's WCAG level.
enum ThemeTestCommand: TokenConfigCommand, JSONCommand {
  static let spec = CommandSpec(
    name: "theme-test",
    summary: "check every label on every surface, per theme and appearance, at WCAG AA or AAA",
    usage: "duet theme-test [--config FILE] [--root DIR] [--json]",
    options: tokenConfigOptions + [json.spec],
    exitCodes: [0: "every pair reaches its level", 1: "a pair falls short", 2: "a usage or config error"],
    examples: ["duet theme-test": "check every label on every surface of every theme",
               "duet theme-test --json": "the same report as JSON, every pair with its ratio"]
  )

  /// `duet theme-test`'s command line: which config.
  struct Options {
    var config: TokenConfigOptions
    var json: Bool
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    Options(config: try tokenConfig(line), json: try line[json])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.show(themeTest(ThemeTestRequest(config: try options.config.resolve(call))), json: options.json)
  }
}/// `duet contrast FOREGROUND BACKGROUND`: a quick ratio, without a config.
enum ContrastCommand: JSONCommand {
  static let spec = CommandSpec(
    name: "contrast",
    summary: "print the WCAG contrast ratio of two colours and the levels it passes",
    usage: "duet contrast FOREGROUND BACKGROUND [--json]",
    options: [json.spec],
    details: "colours: \(ContrastRequest.colourForms)",
    positionals: [.none, .none],
    exitCodes: [0: "whatever the ratio", 2: "a colour it cannot read"],
    examples: ["duet contrast '#1A1A1A' '#FFFFFF'": "the ratio of dark text on white, and the levels it passes"]
  )

  static var maxPositionals: Int { 2 }

  /// `duet contrast`'s command line: the two colours as given.
  struct Options {
    var request: ContrastRequest
    var json: Bool
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    guard line.positionals.count == 2 else {
      throw UsageError(message: "needs two colours, the text's and the ground's (e.g. duet contrast '#6A6A6A' '#F1F1EE')", command: "contrast")
    }
    return Options(request: ContrastRequest(foreground: line.positionals[0], background: line.positionals[1]), json: try line[json])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.show(try contrast(options.request), json: options.json)
  }
}
