import DuetKit
import Foundation

/// `duet design-tokens`: writes the Swift and Kotlin token files from
/// `parity/design-tokens.yaml`, or with `--check` proves they are up to date.
enum DesignTokensCommand: Command {
  static let spec = CommandSpec(
    name: "design-tokens",
    summary: "generate the Swift and Kotlin token files from parity/design-tokens.yaml, or --check them",
    usage: "duet design-tokens [--check] [--config FILE] [--root DIR] [--json]",
    options: [
      OptionSpec(name: "--check", value: nil, help: "regenerate in memory and compare; write nothing, exit 1 on drift"),
      OptionSpec(name: "--config", value: "FILE", help: "the token config (default: parity/design-tokens.yaml under the root)"),
      OptionSpec(
        name: "--root", value: "DIR",
        help: "the tree root (default: the nearest folder up with lanes/manifest.yaml or parity/design-tokens.yaml)"),
      CommandSpec.jsonOption,
    ],
    details: "exit codes: 0 written or up to date, 1 --check found stale, missing or orphaned files, 2 a config error"
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let root: URL
    do {
      root = try TreeRoot.find(
        from: cwd, override: arguments.value("--root"), markers: [Manifest.defaultPath, TokenConfig.defaultPath])
    } catch {
      // Either marker makes a tree here, so the message names both.
      guard case .notFound(let start) = error else { throw error }
      console.err(
        "duet design-tokens: error: no \(Manifest.defaultPath) or \(TokenConfig.defaultPath) in \(start) or any folder above it; run duet inside a tree or pass --root DIR")
      return ExitCode.usage
    }
    var configPath = TokenConfig.defaultPath
    var configURL: URL?
    if let file = arguments.value("--config") {
      let url = URL(fileURLWithPath: file, relativeTo: cwd).standardizedFileURL
      configURL = url
      configPath = relativePath(of: url, under: root) ?? file
    }
    let outcome = DesignTokens.run(
      root: root, configPath: configPath, configURL: configURL, explicit: configURL != nil,
      check: arguments.flag("--check"))
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

  /// `url`'s path relative to `root`, or nil when it lies outside.
  static func relativePath(of url: URL, under root: URL) -> String? {
    let base = root.standardizedFileURL.path
    let path = url.path
    let prefix = base.hasSuffix("/") ? base : base + "/"
    guard path.hasPrefix(prefix) else { return nil }
    return String(path.dropFirst(prefix.count))
  }
}
