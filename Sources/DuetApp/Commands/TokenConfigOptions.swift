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

extension TokenConfigChoice {
  static func resolve<C: TokenConfigCommand>(_ arguments: ParsedArguments<C>) throws -> TokenConfigChoice {
    try resolve(workingDirectory: arguments.invocation.workingDirectory, root: arguments[C.root],
                config: arguments[C.config], command: C.spec.name)
  }
}
