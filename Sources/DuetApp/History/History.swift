import DuetRun
import DuetOutput
import DuetSupport
import Foundation
import DuetHistory

/// `duet history`: the recent runs, newest first, optionally those of one lane.
struct HistoryRequest: Sendable {
  var root: URL
  /// The invocation's environment: `DUET_HISTORY` says where the store is.
  var environment: [String: String]
  /// `--lane NAME`: only runs in which this lane took part.
  var lane: String?
  var limit = 20
  init(root: URL, environment: [String: String]) {
    self.root = root
    self.environment = environment
  }
}

/// The runs `history(_:)` found, each with the lanes that failed it.
enum HistoryResponse: CommandResponse {
  case noHistory(NoHistory)
  case runs(store: String, lane: String?, runs: [RunRow], failedLanes: [String: [String]])

  var exitCode: Int32 { ExitCode.pass }

  func printout(_ format: TextFormat) -> Printout {
    let (store, lane, runs, failed): (String, String?, [RunRow], [String: [String]])
    switch self {
    case .noHistory(let none): return none.printout(json: format.json)
    case .runs(let path, let named, let found, let failedLanes): (store, lane, runs, failed) = (path, named, found, failedLanes)
    }
    var printout = Printout()
    if format.json {
      printout.json(ReportJSON.text(HistoryListJSON(store: store, runs: runs, failedLanes: failed)))
      return printout
    }
    let filter = lane.map { " with lane \($0)" } ?? ""
    printout.out("duet history: \(runs.count) most recent run(s)\(filter), newest first")
    let rows = runs.map { run -> [TerminalLine] in
      ["\(HistoryAccess.time(run.started))", "\(run.outcome.rawValue)", "\(DurationText.format(run.ended - run.started))",
       "\(run.gitCommit.map { String($0.prefix(10)) } ?? "-")", "\(run.logID)",
       "\((failed[run.id] ?? []).joined(separator: ", "))"]
    }
    printout.table(TextTable(header: ["when", "outcome", "time", "commit", "run", "failed"], rows: rows), width: format.width)
    return printout
  }
}

/// `duet history`: reads the store the request's environment names. Throws
/// `CommandFailure` for a store that is off or unreadable. `--lane` was
/// checked with the command line (`KnownLanes`).
func history(_ request: HistoryRequest) throws -> HistoryResponse {
  let store: HistoryStore
  switch try HistoryAccess.openForReading(root: request.root, environment: request.environment, command: "history") {
  case .none(let none): return .noHistory(none)
  case .store(let opened): store = opened
  }
  let runs = try store.recentRuns(limit: request.limit, lane: request.lane)
  let steps = try store.steps(ofRuns: runs.map(\.id))
  let failedByRun = Dictionary(grouping: steps.filter { $0.laneOutcome?.failsRun == true }, by: \.runID)
  return .runs(store: store.path, lane: request.lane, runs: runs, failedLanes: failedByRun.mapValues { $0.map(\.lane) })
}

/// `duet history prune`: keeps the newest runs and drops the rest with their log folders.
struct HistoryPruneRequest: Sendable {
  var root: URL
  var environment: [String: String]
  var keep = 1000
}

enum HistoryPruneResponse: CommandResponse {
  case noHistory(NoHistory)
  /// How many runs and log folders went, and the log folders that could not be removed.
  case pruned(runs: Int, folders: Int, keep: Int, warnings: [String])

  var exitCode: Int32 { ExitCode.pass }

  func printout(_ format: TextFormat) -> Printout {
    switch self {
    case .noHistory(let none): return none.printout(json: false)
    case .pruned(let runs, let folders, let keep, let warnings):
      var printout = Printout()
      for warning in warnings { printout.err("duet history prune: warning: \(warning)") }
      printout.out("duet history prune: dropped \(runs) run(s) and \(folders) log folder(s); kept the newest \(keep)")
      return printout
    }
  }
}

func historyPrune(_ request: HistoryPruneRequest) throws -> HistoryPruneResponse {
  let store: HistoryStore
  switch try HistoryAccess.openForReading(root: request.root, environment: request.environment, command: "history prune") {
  case .none(let none): return .noHistory(none)
  case .store(let opened): store = opened
  }
  let dropped = try store.prune(keep: request.keep)
  var folders = 0
  var warnings: [String] = []
  for logID in dropped {
    do {
      if try LogLocation.removeFolder(logID: logID, root: request.root) { folders += 1 }
    } catch {
      warnings.append("\(error)")
    }
  }
  return .pruned(runs: dropped.count, folders: folders, keep: request.keep, warnings: warnings)
}

/// `duet history merge FILE...`: imports other stores (CI jobs' uploads) into the tree's.
struct HistoryMergeRequest: Sendable {
  var root: URL
  var environment: [String: String]
  /// The stores to import: as given (for the messages) and as absolute paths.
  var files: [(given: String, path: String)]
  /// `--sealed` (generated CI): only the runs the seal beside each store names,
  /// from a store that matches it (`SealedStore`); a store that does not is refused.
  var sealed: Bool = false
  /// Written into the entries the merged passes are kept as, and into an uploaded slot's entry.
  var duetVersion: String = ""
}

struct HistoryMergeResponse: CommandResponse {
  /// Per file as given: what it added, or why it could not be merged.
  var merged: [(file: String, result: Result<(runs: Int, steps: Int), HistoryError>)]
  /// Problems uploading the merged runs to the remote cache (`DUET_REMOTE_CACHE_UPLOAD=1`), which fail nothing.
  var warnings: [String] = []
  /// Passes of lanes without outputs now held as cache entries (`PassesKeptAsEntries`).
  var keptAsEntries = 0
  /// Why none could be kept (`.duet` is not a real folder of the tree).
  var notKept: String?

  var exitCode: Int32 {
    merged.contains { if case .failure = $0.result { true } else { false } } ? ExitCode.failed : ExitCode.pass
  }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    for warning in warnings { printout.err("duet history merge: warning: \(warning)") }
    for (file, result) in merged {
      switch result {
      case .success(let added): printout.out("duet history merge: \(file): \(added.runs) new run(s), \(added.steps) step(s)")
      case .failure(let error): printout.err("duet history merge: error: \(file): \(error)")
      }
    }
    if keptAsEntries > 0 {
      printout.out("duet history merge: \(keptAsEntries) pass(es) of lanes without outputs kept as cache entries")
    }
    if let notKept { printout.err("duet history merge: warning: no pass kept as a cache entry: \(notKept)") }
    return printout
  }
}

func historyMerge(_ request: HistoryMergeRequest) throws(CommandFailure) -> HistoryMergeResponse {
  guard let path = HistoryStore.defaultPath(root: request.root, environment: request.environment) else {
    throw CommandFailure(message: "duet history merge: error: history is off (DUET_HISTORY=off)", code: ExitCode.failed)
  }
  let store: HistoryStore
  do {
    store = try HistoryStore(path: path)
  } catch {
    throw CommandFailure(message: "duet history merge: error: cannot open \(path): \(error)", code: ExitCode.failed)
  }
  let before = Set((try? store.runIDs()) ?? [])
  var response = HistoryMergeResponse(merged: request.files.map { file in
    (file.given, Result { () throws(HistoryError) in
      guard request.sealed else { return try store.merge(from: file.path) }
      let runs: [String]
      do { runs = try SealedStore.verifiedRuns(file.path) } catch { throw .unsafeRow(file.path, "its verdicts do not verify: \(String(describing: error))") }
      return try store.merge(from: file.path, only: Set(runs))
    })
  })
  let added = Set((try? store.runIDs()) ?? []).subtracting(before)
  response.warnings = shareMergedRuns(added, store: store, request: request, duetVersion: request.duetVersion)
  do { response.keptAsEntries = try PassesKeptAsEntries.keep(from: store, root: request.root, duetVersion: request.duetVersion) } catch {
    response.notKept = "\(error)"
  }
  return response
}
