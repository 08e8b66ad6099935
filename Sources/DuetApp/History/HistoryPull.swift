import DuetCache
import DuetProcess
import DuetRun
import DuetHistory
import DuetSupport
import Foundation

/// `duet history pull [--last N]`: the runs the team recorded for the last N
/// commits of HEAD's first-parent history, fetched from the remote cache
/// (`DUET_REMOTE_CACHE`) and merged with `history merge`'s checks.
struct HistoryPullRequest: Sendable {
  var root: URL
  /// The invocation's environment: `DUET_HISTORY`, `DUET_REMOTE_CACHE*`, git's `PATH`.
  var environment: [String: String]
  /// `--last N`: how many commits of HEAD's first-parent history.
  var last = 100
}

struct HistoryPullResponse: CommandResponse {
  var pulled: SharedHistory.Pulled
  /// The remote cache, as messages show it (no credentials).
  var remote: String

  var exitCode: Int32 { pulled.warnings.isEmpty ? ExitCode.pass : ExitCode.failed }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    for warning in pulled.warnings { printout.err("duet history pull: warning: \(warning)") }
    let origins = pulled.origins.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    printout.out("duet history pull: \(pulled.commits) commit(s) of HEAD's first-parent history: \(pulled.found) run(s) in \(remote), "
                 + "\(pulled.merged) new merged (\(pulled.steps) step(s))" + (origins.isEmpty ? "" : " from \(origins)"))
    return printout
  }
}

func historyPull(_ request: HistoryPullRequest) throws -> HistoryPullResponse {
  let resolved: RemoteCacheConfig?
  do { resolved = try RemoteCacheConfig.resolve(flag: nil, environment: request.environment) } catch {
    throw UsageError(message: "\(error)", command: "history")
  }
  guard let config = resolved else {
    throw UsageError(message: "history pull reads the remote cache: set DUET_REMOTE_CACHE to its URL", command: "history")
  }
  guard let path = HistoryStore.defaultPath(root: request.root, environment: request.environment) else {
    throw CommandFailure(message: "duet history pull: error: history is off (DUET_HISTORY=off)", code: ExitCode.failed)
  }
  guard let list = ProcessOutput.git(["rev-list", "--first-parent", "--max-count=\(request.last)", "HEAD"], in: request.root,
                                     environment: request.environment), !list.isEmpty else {
    throw CommandFailure(message: "duet history pull: error: no commit to pull the runs of: \(request.root.path) is not in a git repository with a HEAD commit",
                         code: ExitCode.failed)
  }
  let store: HistoryStore
  do {
    try PathGuard.checkStateFolder(root: request.root)
    store = try HistoryStore(path: path)
  } catch {
    throw CommandFailure(message: "duet history pull: error: cannot open \(path): \(error)", code: ExitCode.failed)
  }
  let contentStore = ContentStore(folder: ContentStore.defaultFolder(root: request.root))
  let remote = RemoteCache(transport: HTTPTransport(config: config), name: config.redacted, upload: false,
                           signingKey: config.signingKey, store: contentStore, maxBlobBytes: config.maxBlobBytes)
  let commits = list.split(separator: "\n").map(String.init)
  return HistoryPullResponse(pulled: SharedHistory.pull(commits: commits, into: store, remote: remote, contentStore: contentStore),
                             remote: config.redacted)
}

/// After `history merge`: the runs it merged travel too, when the remote cache
/// takes uploads (the generated CI's history job: its pipeline's runs, each
/// job's sealed store). Returns warnings; nothing when no remote takes uploads.
func shareMergedRuns(_ ids: Set<String>, store: HistoryStore, request: HistoryMergeRequest, duetVersion: String) -> [String] {
  guard !ids.isEmpty, let config = try? RemoteCacheConfig.resolve(flag: nil, environment: request.environment), config.upload else { return [] }
  let contentStore = ContentStore(folder: ContentStore.defaultFolder(root: request.root))
  let remote = RemoteCache(transport: HTTPTransport(config: config), name: config.redacted, upload: true,
                           signingKey: config.signingKey, store: contentStore, maxBlobBytes: config.maxBlobBytes)
  let scrub = HistoryStore.Scrub(root: request.root.path, home: request.environment[.home])
  let warnings = SharedHistory.upload(runs: ids, of: store, remote: remote, contentStore: contentStore, scrub: scrub, duetVersion: duetVersion)
  return remote.takeWarnings() + warnings
}
