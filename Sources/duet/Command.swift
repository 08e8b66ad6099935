import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetOutput
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

/// Exit codes a CI job can trust.
enum ExitCode {
  static let pass: Int32 = 0
  static let failed: Int32 = 1
  static let usage: Int32 = 2
  static let interrupted: Int32 = 130
}

/// The tree root for `--root`, or the nearest folder above the working directory
/// holding `lanes/manifest.yaml` or `parity/manifest.yaml` (`TreeManifest.root`).
func treeRoot(_ arguments: ParsedArguments) throws -> URL {
  try TreeManifest.root(from: arguments.invocation.workingDirectory, override: arguments.value("--root"))
}

/// The tree's manifest (pinned or derived, with the parity manifest's mock rows),
/// with every built-in this duet knows.
func loadTree(root: URL) throws -> TreeManifest {
  try TreeManifest.load(root: root)
}

/// The tree's manifest alone, for commands that need not say where its lanes came from.
func loadManifest(root: URL) throws -> Manifest {
  try loadTree(root: root).manifest
}

/// A `--json` report as duet prints every one: through `ReportJSON`, which adds `schemaVersion`.
func jsonText<Report: Encodable>(_ report: Report) -> String {
  ReportJSON.text(report)
}
