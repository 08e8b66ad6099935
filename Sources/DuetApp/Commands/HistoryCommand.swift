import Foundation
import DuetCommandLine
import DuetSupport

/// `duet history`: recent runs; `duet history prune` and `duet history merge FILE...`.
enum HistoryCommand: TreeCommand, JSONCommand {
  static let lane = Option<Self, String?>.text(OptionSpec(name: "--lane", value: "NAME", help: "only runs in which this lane took part"))
  static let limit = Option<Self, Int?>.positiveInt(OptionSpec(name: "--limit", value: "N", help: "how many runs to list (default: 20)"))
  static let keep = Option<Self, Int?>.positiveInt(OptionSpec(name: "--keep", value: "N", help: "with prune: how many runs to keep (default: 1000)"))
  static let last = Option<Self, Int?>.positiveInt(OptionSpec(name: "--last", value: "N", help: "with pull: how many commits of HEAD's first-parent history (default: 100)"))
  static let sealed = Option<Self, Bool>.flag(OptionSpec(name: "--sealed", value: nil, help: "with merge (generated CI): only the runs each store's seal names, refusing a store that does not match it"))

  static let spec = CommandSpec(
    name: "history",
    summary: "list recent verify runs; 'history prune' drops old ones, 'history merge FILE...' imports stores, 'history pull' fetches the team's runs",
    usage: "duet history [--lane NAME] [--limit N] [--json] | duet history prune [--keep N] | duet history merge [--sealed] FILE... | duet history pull [--last N]",
    options: [lane.spec, limit.spec, keep.spec, last.spec, sealed.spec, json.spec, root.spec],
    positionals: [.words(["prune", "merge", "pull"]), .files],
    exitCodes: [0: "listed (also when nothing is recorded yet), pruned, merged or pulled",
                1: "the history is off or unreadable, a store could not be merged, or a pull met a problem (each a warning)",
                2: "a usage error, a --lane neither the manifest nor the history knows, or pull without DUET_REMOTE_CACHE"],
    examples: ["duet history merge ci/history-*.sqlite": "import the stores CI jobs uploaded",
               "duet history pull --last 20": "merge the runs CI and the team recorded for the last 20 commits (DUET_REMOTE_CACHE)"]
  )
  static let maxPositionals = Int.max
  static let readsRecordedLanes = true

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    switch arguments.positionals.first {
    case nil: return try list(arguments, console: console)
    case "prune": return try prune(arguments, console: console)
    case "merge": return try merge(arguments, console: console)
    case "pull": return try pull(arguments, console: console)
    case let other?:
      throw UsageError(message: "unknown subcommand '\(other)'\(Suggestion.hint(for: other, in: ["prune", "merge", "pull"])) (history takes prune, merge or pull)", command: "history")
    }
  }

  static func list(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let limit = try arguments[Self.limit] ?? 20
    var request = HistoryRequest(root: try treeRoot(arguments), environment: arguments.invocation.environment)
    request.limit = limit
    request.lane = try arguments[lane]
    return console.show(try history(request), json: try arguments[json])
  }

  static func prune(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let keep = try arguments[Self.keep] ?? 1000
    var request = HistoryPruneRequest(root: try treeRoot(arguments), environment: arguments.invocation.environment)
    request.keep = keep
    return console.show(try historyPrune(request))
  }

  static func merge(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let files = Array(arguments.positionals.dropFirst())
    guard !files.isEmpty else { throw UsageError(message: "merge needs at least one store file", command: "history") }
    let root = try treeRoot(arguments)
    let cwd = arguments.invocation.workingDirectory
    let request = HistoryMergeRequest(root: root, environment: arguments.invocation.environment,
                                      files: files.map { ($0, URL(fileURLWithPath: $0, relativeTo: cwd).path) }, sealed: try arguments[sealed],
                                      duetVersion: duetVersion)
    return console.show(try historyMerge(request))
  }

  static func pull(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    guard arguments.positionals.count == 1 else { throw UsageError(message: "pull takes no file", command: "history") }
    var request = HistoryPullRequest(root: try treeRoot(arguments), environment: arguments.invocation.environment)
    request.last = try arguments[last] ?? 100
    return console.show(try historyPull(request))
  }
}
