import DuetKit
import Foundation

/// `duet theme-test`: every label on every surface of `parity/design-tokens.yaml`,
/// per theme and appearance, at the theme's WCAG level.
enum ThemeTestCommand: Command {
  static let spec = CommandSpec(
    name: "theme-test",
    summary: "check every label on every surface, per theme and appearance, at WCAG AA or AAA",
    usage: "duet theme-test [--config FILE] [--root DIR] [--json]",
    options: [
      OptionSpec(name: "--config", value: "FILE", help: "the token config (default: parity/design-tokens.yaml under the root)"),
      OptionSpec(
        name: "--root", value: "DIR",
        help: "the tree root (default: the nearest folder up with lanes/manifest.yaml or parity/design-tokens.yaml)"),
      CommandSpec.jsonOption,
    ],
    details: "exit codes: 0 every pair reaches its level, 1 a pair falls short, 2 a config error"
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let root: URL
    do {
      root = try TreeRoot.find(
        from: cwd, override: arguments.value("--root"), markers: [Manifest.defaultPath, TokenConfig.defaultPath])
    } catch {
      guard case .notFound(let start) = error else { throw error }
      console.err(
        "duet theme-test: error: no \(Manifest.defaultPath) or \(TokenConfig.defaultPath) in \(start) or any folder above it; run duet inside a tree or pass --root DIR")
      return ExitCode.usage
    }
    var configPath = TokenConfig.defaultPath
    var configURL: URL?
    if let file = arguments.value("--config") {
      let url = URL(fileURLWithPath: file, relativeTo: cwd).standardizedFileURL
      configURL = url
      configPath = DesignTokensCommand.relativePath(of: url, under: root) ?? file
    }
    let outcome = ThemeTest.run(root: root, configPath: configPath, configURL: configURL)
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
