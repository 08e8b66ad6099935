import DuetModel
import DuetSupport
import DuetTokens
import Foundation

/// The tree and the token config a token command reads, from `--root` and
/// `--config`: shared by `design-tokens` and `theme-test`, which must agree.
struct TokenConfigChoice: Sendable {
  var root: URL
  /// How messages and banners name the config: relative to the root when it lies inside.
  var configPath: String
  /// Where `--config` says the config really is; nil for the default under the root.
  var configURL: URL?

  /// The tree from `workingDirectory` up (either `lanes/manifest.yaml` or the
  /// token config marks one), or `root` as given. No tree is a `CommandFailure`
  /// (exit 2) whose message names both markers.
  static func resolve(workingDirectory: URL, root override: String?, config: String?, command: String) throws -> TokenConfigChoice {
    let root: URL
    do {
      root = try TreeRoot.find(from: workingDirectory, override: override, markers: [Manifest.defaultPath, TokenConfig.defaultPath])
    } catch {
      guard case .notFound(let start) = error else { throw error }
      // `start` is the working directory: a folder name may hold `\n::error…`.
      let line: TerminalLine = "duet \(command): error: no \(Manifest.defaultPath) or \(TokenConfig.defaultPath) in \(start) or any folder above it; run duet inside a tree or pass --root DIR"
      throw CommandFailure(message: line.text, code: ExitCode.usage)
    }
    var choice = TokenConfigChoice(root: root, configPath: TokenConfig.defaultPath, configURL: nil)
    if let file = config {
      let url = URL(fileURLWithPath: file, relativeTo: workingDirectory).standardizedFileURL
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
