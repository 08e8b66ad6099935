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

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let request = ThemeTestRequest(config: try TokenConfigChoice.resolve(arguments))
    return console.show(themeTest(request), json: try arguments[json])
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

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    guard arguments.positionals.count == 2 else {
      throw UsageError(message: "needs two colours, the text's and the ground's (e.g. duet contrast '#6A6A6A' '#F1F1EE')", command: "contrast")
    }
    let request = ContrastRequest(foreground: arguments.positionals[0], background: arguments.positionals[1])
    return console.show(try contrast(request), json: try arguments[json])
  }
}
