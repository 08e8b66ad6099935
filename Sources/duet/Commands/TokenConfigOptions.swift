import Foundation
import DuetApp
import DuetSupport

/// `--root` and `--config` of the token commands (`design-tokens`, `theme-test`),
/// which must find the same tree and config (`TokenConfigChoice` in DuetApp).
extension TokenConfigChoice {
  static let options = [
    OptionSpec(name: "--config", value: "FILE", help: "the token config (default: parity/design-tokens.yaml under the root)"),
    OptionSpec(
      name: "--root", value: "DIR",
      help: "the tree root (default: the nearest folder up with lanes/manifest.yaml or parity/design-tokens.yaml)"),
  ]

  static func resolve(_ arguments: ParsedArguments, command: String) throws -> TokenConfigChoice {
    try resolve(workingDirectory: arguments.invocation.workingDirectory, root: arguments.value("--root"),
                config: arguments.value("--config"), command: command)
  }
}
