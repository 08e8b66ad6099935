import Foundation
import DuetApp
import DuetSupport

/// A subcommand: its spec, and a function from parsed arguments to an exit code.
protocol Command {
  static var spec: CommandSpec { get }
  /// The spec that help, the man page and the completions document: `spec`, unless
  /// a command adds its examples and exit codes in a file of their own.
  static var documentedSpec: CommandSpec { get }
  static var maxPositionals: Int { get }
  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32
}

extension Command {
  static var maxPositionals: Int { 0 }
  static var documentedSpec: CommandSpec { spec }
}

/// The tree root for `--root`, or the nearest folder above the working directory
/// holding `lanes/manifest.yaml` or `parity/manifest.yaml` (`findTree` in DuetApp).
func treeRoot(_ arguments: ParsedArguments) throws -> URL {
  try findTree(from: arguments.invocation.workingDirectory, override: arguments.value("--root"))
}
