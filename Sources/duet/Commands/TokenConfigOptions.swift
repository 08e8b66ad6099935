import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// The tree and the token config a token command reads, from `--root` and
/// `--config`: shared by `design-tokens` and `theme-test`, which must agree.
struct TokenConfigChoice {
  var root: URL
  /// How messages and banners name the config: relative to the root when it lies inside.
  var configPath: String
  /// Where `--config` says the config really is; nil for the default under the root.
  var configURL: URL?

  static let options = [
    OptionSpec(name: "--config", value: "FILE", help: "the token config (default: parity/design-tokens.yaml under the root)"),
    OptionSpec(
      name: "--root", value: "DIR",
      help: "the tree root (default: the nearest folder up with lanes/manifest.yaml or parity/design-tokens.yaml)"),
  ]

  /// Nil when no tree is found, after saying so on stderr: either marker makes
  /// a tree, so the message names both.
  static func resolve(_ arguments: ParsedArguments, command: String, console: Console) throws -> TokenConfigChoice? {
    let cwd = arguments.invocation.workingDirectory
    let root: URL
    do {
      root = try TreeRoot.find(
        from: cwd, override: arguments.value("--root"), markers: [Manifest.defaultPath, TokenConfig.defaultPath])
    } catch {
      guard case .notFound(let start) = error else { throw error }
      console.err(
        "duet \(command): error: no \(Manifest.defaultPath) or \(TokenConfig.defaultPath) in \(start) or any folder above it; run duet inside a tree or pass --root DIR")
      return nil
    }
    var choice = TokenConfigChoice(root: root, configPath: TokenConfig.defaultPath, configURL: nil)
    if let file = arguments.value("--config") {
      let url = URL(fileURLWithPath: file, relativeTo: cwd).standardizedFileURL
      choice.configURL = url
      choice.configPath = relativePath(of: url, under: root) ?? file
    }
    return choice
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
