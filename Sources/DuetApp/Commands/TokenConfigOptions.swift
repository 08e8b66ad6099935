import Foundation
import DuetCommandLine
import DuetSupport

/// A token command (`design-tokens`, `theme-test`): its `--root` and `--config`,
/// which must find the same tree and config (`TokenConfigChoice` in DuetApp).
protocol TokenConfigCommand: Command {}

extension TokenConfigCommand {
  static var config: Option<Self, String?> {
    .text(OptionSpec(name: "--config", value: "FILE", help: "the token config (default: parity/design-tokens.yaml under the root)"))
  }
  /// The token commands' own `--root`: a tree with only `parity/design-tokens.yaml` will do.
  static var root: Option<Self, String?> {
    .text(OptionSpec(
      name: "--root", value: "DIR",
      help: "the tree root (default: the nearest folder up with lanes/manifest.yaml or parity/design-tokens.yaml)"))
  }
  static var tokenConfigOptions: [OptionSpec] { [config.spec, root.spec] }
}

extension TokenConfigCommand {
  /// `--config` and `--root` as the command line gives them.
  static func tokenConfig(_ line: ParsedArguments<Self>) throws(UsageError) -> TokenConfigOptions {
    TokenConfigOptions(root: try line[root], config: try line[config], command: spec.name)
  }
}

/// A token command's `--root` and `--config`, as given; `resolve` finds the tree and the config.
struct TokenConfigOptions {
  var root: String?
  var config: String?
  /// The command's name, for a usage error.
  var command: String

  func resolve(_ call: CommandCall) throws -> TokenConfigChoice {
    try TokenConfigChoice.resolve(workingDirectory: call.invocation.workingDirectory, root: root, config: config, command: command)
  }
}
