import Foundation
import DuetCommandLine
import DuetSupport

/// A subcommand: its spec, and a function from parsed arguments to an exit code.
protocol Command {
  static var spec: CommandSpec { get }
  /// The spec that help, the man page and the completions document: `spec`, unless
  /// a command adds its examples and exit codes in a file of their own.
  static var documentedSpec: CommandSpec { get }
  static var maxPositionals: Int { get }
  /// Whether a lane the history recorded counts as known as well as the
  /// manifest's (the commands that read the history: a lane since renamed or
  /// removed still has runs worth reading).
  static var readsRecordedLanes: Bool { get }
  /// The lane names of the command line checked against the tree's manifest
  /// (`KnownLanes`); a command that names no lane has none to check.
  static func checkLanes(_ arguments: ParsedArguments<Self>) throws
  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32
}

extension Command {
  static var maxPositionals: Int { 0 }
  static var documentedSpec: CommandSpec { spec }
  static var readsRecordedLanes: Bool { false }

  static func checkLanes(_ arguments: ParsedArguments<Self>) throws {
    assert(arguments.laneWords.isEmpty, "\(spec.name) takes lane names but finds no tree to check them in: make it a TreeCommand")
  }

  /// The words after the command's name, parsed and checked in one step: each
  /// option and its value against the spec, then the lane names against the
  /// manifest; then its help (for `--help`) or its run.
  static func call(_ words: [String], invocation: Invocation, console: Console) throws -> Int32 {
    let parsed = try ParsedArguments<Self>.parse(words, invocation: invocation)
    if parsed.wantsHelp {
      console.out(lines: documentedSpec.help)
      return ExitCode.pass
    }
    try checkLanes(parsed)
    return try run(parsed, console: console)
  }
}

/// A command that finds its tree with the shared `--root DIR` (`treeRoot`).
protocol TreeCommand: Command {}

extension TreeCommand {
  static var root: Option<Self, String?> { .text(CommandSpec.rootOption) }

  /// The one check of every command's lane names; with no tree found, none:
  /// the command says so itself.
  static func checkLanes(_ arguments: ParsedArguments<Self>) throws {
    let words = arguments.laneWords
    guard !words.isEmpty, let root = try? treeRoot(arguments) else { return }
    try KnownLanes.check(words, root: root, environment: arguments.invocation.environment, orHistory: readsRecordedLanes, command: spec.name)
  }
}

/// A command that prints its result as JSON with `--json`.
protocol JSONCommand: Command {}

extension JSONCommand {
  static var json: Option<Self, Bool> { .flag(CommandSpec.jsonOption) }
}

/// The tree root for `--root`, or the nearest folder above the working directory
/// holding `lanes/manifest.yaml` or `parity/manifest.yaml` (`findTree` in DuetApp).
func treeRoot<C: TreeCommand>(_ arguments: ParsedArguments<C>) throws -> URL {
  try findTree(from: arguments.invocation.workingDirectory, override: arguments[C.root])
}

/// A file named on `C`'s command line (`--html FILE`, `--junit FILE`), as an
/// absolute path from the working folder; nil when it was not given, and a usage
/// error (`--html needs a file path`) when it is empty.
func filePath<C: Command>(_ text: String?, option: String, _ arguments: ParsedArguments<C>) throws -> String? {
  guard let text else { return nil }
  guard !text.isEmpty else { throw UsageError(message: "\(option) needs a file path", command: C.spec.name) }
  return URL(fileURLWithPath: text, relativeTo: arguments.invocation.workingDirectory).path
}
