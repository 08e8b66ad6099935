import DuetKit
import Foundation

/// `duet theme-test`: every label on every surface of `parity/design-tokens.yaml`,
/// per theme and appearance, at the theme's WCAG level.
enum ThemeTestCommand: Command {
  static let spec = CommandSpec(
    name: "theme-test",
    summary: "check every label on every surface, per theme and appearance, at WCAG AA or AAA",
    usage: "duet theme-test [--config FILE] [--root DIR] [--json]",
    options: TokenConfigChoice.options + [CommandSpec.jsonOption],
    details: "exit codes: 0 every pair reaches its level, 1 a pair falls short, 2 a config error"
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
    details: "colours: \(TypedColor.forms)\nexit codes: 0 whatever the ratio, 2 a colour it cannot read"
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
