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

  /// `duet history`'s command line: the subcommand with what it takes.
  struct Options {
    enum Action {
      case list(lane: String?, limit: Int)
      case prune(keep: Int)
      /// Each store as given and as an absolute path (from the working folder).
      case merge(files: [(given: String, path: String)], sealed: Bool)
      case pull(last: Int)
    }
    var root: String?
    var json: Bool
    var action: Action
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    let action: Options.Action
    switch line.positionals.first {
    case nil: action = .list(lane: try line[lane], limit: try line[limit] ?? 20)
    case "prune": action = .prune(keep: try line[keep] ?? 1000)
    case "merge":
      let files = Array(line.positionals.dropFirst())
      guard !files.isEmpty else { throw UsageError(message: "merge needs at least one store file", command: "history") }
      let cwd = line.invocation.workingDirectory
      action = .merge(files: files.map { ($0, URL(fileURLWithPath: $0, relativeTo: cwd).path) }, sealed: try line[sealed])
    case "pull":
      guard line.positionals.count == 1 else { throw UsageError(message: "pull takes no file", command: "history") }
      action = .pull(last: try line[last] ?? 100)
    case let other?:
      throw UsageError(message: "unknown subcommand '\(other)'\(Suggestion.hint(for: other, in: ["prune", "merge", "pull"])) (history takes prune, merge or pull)", command: "history")
    }
    return Options(root: try line[root], json: try line[json], action: action)
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    let root = try call.treeRoot(options.root)
    let environment = call.environment
    switch options.action {
    case .list(let lane, let limit):
      var request = HistoryRequest(root: root, environment: environment)
      request.limit = limit
      request.lane = lane
      return call.console.show(try history(request), json: options.json)
    case .prune(let keep):
      var request = HistoryPruneRequest(root: root, environment: environment)
      request.keep = keep
      return call.console.show(try historyPrune(request))
    case .merge(let files, let sealed):
      let request = HistoryMergeRequest(root: root, environment: environment, files: files, sealed: sealed, duetVersion: duetVersion)
      return call.console.show(try historyMerge(request))
    case .pull(let last):
      var request = HistoryPullRequest(root: root, environment: environment)
      request.last = last
      return call.console.show(try historyPull(request))
    }
  }
}
