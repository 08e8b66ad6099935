import Foundation
import DuetApp
import DuetSupport

/// `duet theme-test`: every label on every surface of `parity/design-tokens.yaml`,
/// per theme and appearance, at the theme's WCAG level.
enum ThemeTestCommand: TokenConfigCommand, JSONCommand {
  static let spec = CommandSpec(
    name: "theme-test",
    summary: "check every label on every surface, per theme and appearance, at WCAG AA or AAA",
    usage: "duet theme-test [--config FILE] [--root DIR] [--json]",
    options: tokenConfigOptions + [json.spec],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "every pair reaches its level"),
      ExitCodeDoc(code: 1, meaning: "a pair falls short"),
      ExitCodeDoc(code: 2, meaning: "a usage or config error"),
    ],
    examples: [
      HelpExample(command: "duet theme-test", what: "check every label on every surface of every theme"),
      HelpExample(command: "duet theme-test --json", what: "the same report as JSON, every pair with its ratio"),
    ]
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
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "whatever the ratio"),
      ExitCodeDoc(code: 2, meaning: "a colour it cannot read"),
    ],
    examples: [
      HelpExample(command: "duet contrast '#1A1A1A' '#FFFFFF'", what: "the ratio of dark text on white, and the levels it passes"),
    ]
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
