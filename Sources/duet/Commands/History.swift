import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetOutput
import DuetSupport

/// `duet history`: recent runs; `duet history prune` and `duet history merge FILE...`.
enum HistoryCommand: Command {
  static let spec = CommandSpec(
    name: "history",
    summary: "list recent verify runs; 'history prune' drops old ones, 'history merge FILE...' imports stores",
    usage: "duet history [--lane NAME] [--limit N] [--json] | duet history prune [--keep N] | duet history merge FILE...",
    options: [
      OptionSpec(name: "--lane", value: "NAME", help: "only runs in which this lane took part"),
      OptionSpec(name: "--limit", value: "N", help: "how many runs to list (default: 20)"),
      OptionSpec(name: "--keep", value: "N", help: "with prune: how many runs to keep (default: 1000)"),
      CommandSpec.jsonOption,
      CommandSpec.rootOption,
    ],
    positionals: [.words(["prune", "merge"]), .files],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "listed (also when nothing is recorded yet), pruned or merged"),
      ExitCodeDoc(code: 1, meaning: "the history is off or unreadable, or a store could not be merged"),
      ExitCodeDoc(code: 2, meaning: "a usage error, or a --lane neither the manifest nor the history knows"),
    ],
    examples: [
      HelpExample(command: "duet history --lane kotlin", what: "the recent runs in which the kotlin lane took part"),
      HelpExample(command: "duet history merge ci/history-*.sqlite", what: "import the stores CI jobs uploaded"),
    ]
  )
  static let maxPositionals = Int.max

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    switch arguments.positionals.first {
    case nil: return try list(arguments, console: console)
    case "prune": return try prune(arguments, console: console)
    case "merge": return try merge(arguments, console: console)
    case let other?:
      throw UsageError(message: "unknown subcommand '\(other)'\(Suggestion.hint(for: other, in: ["prune", "merge"])) (history takes prune or merge)", command: "history")
    }
  }

  static func list(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let json = arguments.flag("--json")
    let limit = try arguments.positiveInt("--limit", command: "history") ?? 20
    if let lane = arguments.value("--lane") { try KnownLane.check(lane, root: try treeRoot(arguments), environment: arguments.invocation.environment, command: "history") }
    guard let store = try HistoryAccess.openForReading(arguments, command: "history", console: console, json: json) else { return ExitCode.pass }
    let runs = try store.recentRuns(limit: limit, lane: arguments.value("--lane"))
    let steps = try store.steps(ofRuns: runs.map(\.id))
    let failedByRun = Dictionary(grouping: steps.filter { $0.laneOutcome?.failsRun == true }, by: \.runID)
    if json {
      console.out(jsonText(HistoryListJSON(store: store.path, runs: runs, failedLanes: failedByRun.mapValues { $0.map(\.lane) })))
      return ExitCode.pass
    }
    let filter = arguments.value("--lane").map { " with lane \($0)" } ?? ""
    console.out("duet history: \(runs.count) most recent run(s)\(filter), newest first")
    let rows = runs.map { run -> [String] in
      [HistoryAccess.time(run.started), run.outcome.rawValue, DurationText.format(run.ended - run.started),
       run.gitCommit.map { String($0.prefix(10)) } ?? "-", run.logID,
       (failedByRun[run.id] ?? []).map(\.lane).joined(separator: ", ")]
    }
    for line in TextTable(header: ["when", "outcome", "time", "commit", "run", "failed"], rows: rows).lines(maxWidth: console.width) {
      console.out("  " + line)
    }
    return ExitCode.pass
  }

  static func prune(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let keep = try arguments.positiveInt("--keep", command: "history") ?? 1000
    guard let store = try HistoryAccess.openForReading(arguments, command: "history prune", console: console, json: false) else { return ExitCode.pass }
    let dropped = try store.prune(keep: keep)
    let root = try treeRoot(arguments)
    var folders = 0
    for logID in dropped {
      do {
        if try LogLocation.removeFolder(logID: logID, root: root) { folders += 1 }
      } catch {
        console.err("duet history prune: warning: \(error)")
      }
    }
    console.out("duet history prune: dropped \(dropped.count) run(s) and \(folders) log folder(s); kept the newest \(keep)")
    return ExitCode.pass
  }

  static func merge(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let files = Array(arguments.positionals.dropFirst())
    guard !files.isEmpty else { throw UsageError(message: "merge needs at least one store file", command: "history") }
    let root = try treeRoot(arguments)
    guard let path = HistoryStore.defaultPath(root: root, environment: arguments.invocation.environment) else {
      throw CommandFailure(message: "duet history merge: error: history is off (DUET_HISTORY=off)", code: ExitCode.failed)
    }
    let store: HistoryStore
    do {
      store = try HistoryStore(path: path)
    } catch {
      throw CommandFailure(message: "duet history merge: error: cannot open \(path): \(error)", code: ExitCode.failed)
    }
    var failures = 0
    for file in files {
      let full = URL(fileURLWithPath: file, relativeTo: arguments.invocation.workingDirectory).path
      do {
        let added = try store.merge(from: full)
        console.out("duet history merge: \(file): \(added.runs) new run(s), \(added.steps) step(s)")
      } catch {
        console.err("duet history merge: error: \(file): \(error)")
        failures += 1
      }
    }
    return failures == 0 ? ExitCode.pass : ExitCode.failed
  }
}
