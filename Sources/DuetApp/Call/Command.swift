import Foundation
import DuetCommandLine
import DuetSupport
import DuetModel

/// A subcommand: its spec, its options as one value, and a function from that
/// value to an exit code.
protocol Command {
  /// The command line as this command reads it: each option's value typed and
  /// checked, the positional words it takes (`CacheCommand.Options`), made in
  /// the one parse step (`options(_:)`); `run` is handed this, never the parsed line.
  associatedtype Options
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
  /// (`KnownLanes`); a command that names no lane has none to check. Returns
  /// the manifest the check loaded, if it did, so the command need not load it again.
  static func checkLanes(_ arguments: ParsedArguments<Self>) throws -> TreeManifest?
  /// The parsed line as the command's options: every value read as its key
  /// checked it in the parse (a number, a shard, a size), and the line as a
  /// whole checked (the options that cannot go together, what a subcommand
  /// needs); before the command runs and before it reads any file.
  static func options(_ line: ParsedArguments<Self>) throws -> Options
  static func run(_ options: Options, in call: CommandCall) throws -> Int32
}

extension Command {
  static var maxPositionals: Int { 0 }
  static var documentedSpec: CommandSpec { spec }
  static var readsRecordedLanes: Bool { false }

  static func checkLanes(_ arguments: ParsedArguments<Self>) throws -> TreeManifest? {
    assert(arguments.laneWords.isEmpty, "\(spec.name) takes lane names but finds no tree to check them in: make it a TreeCommand")
    return nil
  }

  /// The words after the command's name, parsed and checked in one step: each
  /// option and its value against the spec, then the lane names against the
  /// manifest, then the line as a whole as the command's options value (the
  /// options that go together, those a subcommand needs); then its help (for
  /// `--help`) or its run with that value.
  static func call(_ words: [String], invocation: Invocation, console: Console) throws -> Int32 {
    let parsed = try ParsedArguments<Self>.parse(words, invocation: invocation)
    if parsed.wantsHelp {
      console.out(lines: documentedSpec.help)
      return ExitCode.pass
    }
    let manifest = try checkLanes(parsed)
    let options = try options(parsed)
    return try run(options, in: CommandCall(invocation: invocation, console: console, manifest: manifest))
  }
}

/// A command that finds its tree with the shared `--root DIR` (`CommandCall.treeRoot`).
protocol TreeCommand: Command {}

extension TreeCommand {
  static var root: Option<Self, String?> { .text(CommandSpec.rootOption) }

  /// The one check of every command's lane names; with no tree found, none:
  /// the command says so itself.
  static func checkLanes(_ arguments: ParsedArguments<Self>) throws -> TreeManifest? {
    let words = arguments.laneWords
    guard !words.isEmpty, let tree = try? findTree(from: arguments.invocation.workingDirectory, override: arguments[Self.root]) else { return nil }
    return try KnownLanes.check(words, root: tree, environment: arguments.invocation.environment, orHistory: readsRecordedLanes, command: spec.name)
  }
}

/// A command that prints its result as JSON with `--json`.
protocol JSONCommand: Command {}

extension JSONCommand {
  static var json: Option<Self, Bool> { .flag(CommandSpec.jsonOption) }
}

/// One call of a command, besides its options: where it was called from, where
/// it prints, and what the parse step already loaded.
struct CommandCall {
  var invocation: Invocation
  var console: Console
  /// The tree's manifest as the lane check loaded it (a command line that names
  /// lanes); nil when there was none to check. A command that reads the manifest
  /// takes this one rather than loading it again.
  var manifest: TreeManifest?

  /// The tree root for `--root` (`override`), or the nearest folder above the working
  /// directory holding `lanes/manifest.yaml` or `parity/manifest.yaml` (`findTree`).
  func treeRoot(_ override: String?) throws -> URL {
    try findTree(from: invocation.workingDirectory, override: override)
  }

  var environment: [String: String] { invocation.environment }
}

/// A file named on `C`'s command line (`--html FILE`, `--junit FILE`), as an
/// absolute path from the working folder; nil when it was not given, and a usage
/// error (`--html needs a file path`) when it is empty.
func filePath<C: Command>(_ text: String?, option: String, _ arguments: ParsedArguments<C>) throws(UsageError) -> String? {
  guard let text else { return nil }
  guard !text.isEmpty else { throw UsageError(message: "\(option) needs a file path", command: C.spec.name) }
  return URL(fileURLWithPath: text, relativeTo: arguments.invocation.workingDirectory).path
}
