import DuetModel
import DuetRun
import DuetHistory
import DuetSupport
import Foundation

/// `duet explain LANE [--against RUN]`: why this checkout misses (or would be
/// served) a pass of LANE that another checkout or machine recorded: every
/// part of the lane's fingerprint here that differs from that run's (issue 56).
struct ExplainRequest: Sendable {
  var root: URL
  var lane: String
  /// `--against RUN`: the run to compare with (its id or log id, or a prefix);
  /// nil for the nearest pass another checkout or machine recorded for HEAD's commit.
  var against: String?
  var duetVersion: String
  var environment: [String: String]
  init(root: URL, lane: String, duetVersion: String, environment: [String: String]) {
    self.root = root
    self.lane = lane
    self.duetVersion = duetVersion
    self.environment = environment
  }
}

struct ExplainResponse: CommandResponse {
  var lane: String
  /// The run compared with and the differences; equal parts have none.
  var miss: CacheMiss

  var exitCode: Int32 { ExitCode.pass }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    miss.explained(lane: lane).forEach { printout.out($0) }
    return printout
  }
}

/// The lane's fingerprint taken as `verify --dry-run` takes it (nothing run or
/// recorded), compared with the run asked for or the nearest pass of HEAD's
/// commit by another checkout (the lane checked with the command line,
/// `KnownLanes`). Throws `UsageError` for an unknown run,
/// `CommandFailure` (exit 1) when there is nothing to compare with.
func explain(_ request: ExplainRequest) throws -> ExplainResponse {
  var verify = VerifyRequest(root: request.root, duetVersion: request.duetVersion, environment: request.environment)
  verify.options.lanes = [request.lane]
  verify.dryRun = true
  guard case .dryRun(let decided) = try DuetApp.verify(verify) else {
    throw CommandFailure(message: "duet explain: error: lane '\(request.lane)' has nothing to fingerprint here", code: ExitCode.failed)
  }
  guard let index = decided.plan.manifest.lanes.firstIndex(where: { $0.name == request.lane }), let parts = decided.fingerprints.parts[index] else {
    throw CommandFailure(message: "duet explain: error: lane '\(request.lane)' has no fingerprint here (no inputs, and no git to stand for them)", code: ExitCode.failed)
  }
  guard let against = request.against else {
    guard let miss = decided.misses[index] else {
      throw CommandFailure(message: "duet explain: \(request.lane): no pass of it by another checkout or machine with other inputs is recorded for HEAD's commit "
                           + "(duet history pull fetches the team's runs; --against RUN names one)", code: ExitCode.failed)
    }
    return ExplainResponse(lane: request.lane, miss: miss)
  }
  guard let path = HistoryStore.defaultPath(root: request.root, environment: request.environment), FileManager.default.fileExists(atPath: path),
        let run = try HistoryStore(path: path, readOnly: true).recordedRun(lane: request.lane, id: against) else {
    throw UsageError(message: "no run '\(against)' of lane '\(request.lane)' with its fingerprint's parts in the history (an id or log id, or a prefix naming one run)", command: "explain")
  }
  return ExplainResponse(lane: request.lane, miss: CacheMiss(against: run, differences: parts.differences(from: run.parts)))
}
