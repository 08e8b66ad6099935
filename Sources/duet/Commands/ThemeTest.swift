import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet theme-test`: every label on every surface of `parity/design-tokens.yaml`,
/// per theme and appearance, at the theme's WCAG level.
enum ThemeTestCommand: Command {
  static let spec = CommandSpec(
    name: "theme-test",
    summary: "check every label on every surface, per theme and appearance, at WCAG AA or AAA",
    usage: "duet theme-test [--config FILE] [--root DIR] [--json]",
    options: TokenConfigChoice.options + [CommandSpec.jsonOption],
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

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let choice = try TokenConfigChoice.resolve(arguments, command: "theme-test", console: console) else {
      return ExitCode.usage
    }
    let outcome = ThemeTest.run(root: choice.root, configPath: choice.configPath, configURL: choice.configURL)
    if arguments.flag("--json") {
      console.out(outcome.json)
      if case .failure(let diagnostics, _) = outcome { console.diagnostics(diagnostics) }
    } else if case .failure(let diagnostics, _) = outcome {
      console.diagnostics(diagnostics)
    } else {
      console.out(outcome.text)
    }
    return outcome.exitCode
  }
}

/// `duet contrast FOREGROUND BACKGROUND`: a quick ratio, without a config.
enum ContrastCommand: Command {
  static let spec = CommandSpec(
    name: "contrast",
    summary: "print the WCAG contrast ratio of two colours and the levels it passes",
    usage: "duet contrast FOREGROUND BACKGROUND [--json]",
    options: [CommandSpec.jsonOption],
    details: "colours: \(TypedColor.forms)",
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

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.count == 2 else {
      throw UsageError(message: "needs two colours, the text's and the ground's (e.g. duet contrast '#6A6A6A' '#F1F1EE')", command: "contrast")
    }
    var colors: [TypedColor] = []
    for (word, role) in zip(arguments.positionals, ["foreground", "background"]) {
      guard let color = TypedColor(word) else {
        throw UsageError(message: "cannot read the \(role) colour '\(word)'; expected \(TypedColor.forms)", command: "contrast")
      }
      colors.append(color)
    }
    let query = ContrastQuery(colors[0], on: colors[1])
    console.out(arguments.flag("--json") ? query.json : query.text)
    return ExitCode.pass
  }
}
