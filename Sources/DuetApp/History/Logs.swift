import DuetRun
import DuetSupport
import Foundation
import DuetHistory

/// `duet logs LANE`: a lane's log from the last run in which it printed (or from one run).
struct LogsRequest: Sendable {
  var root: URL
  /// The invocation's environment: `DUET_HISTORY` says where the store is.
  var environment: [String: String]
  var lane: String
  /// `--run ID`: a run id or log id, or a prefix of one.
  var run: String?
  init(root: URL, environment: [String: String], lane: String) {
    self.root = root
    self.environment = environment
    self.lane = lane
  }
}

enum LogsResponse: CommandResponse {
  /// No store yet: said on stdout, exit 1.
  case noHistory(NoHistory)
  /// The log's bytes, as the lane wrote them.
  case log(Data)

  var exitCode: Int32 {
    if case .noHistory = self { return ExitCode.failed }
    return ExitCode.pass
  }

  func printout(_ format: TextFormat) -> Printout {
    switch self {
    case .noHistory(let none): return none.printout(json: false)
    case .log(let data):
      var printout = Printout()
      printout.bytes(data)
      return printout
    }
  }
}

/// Throws `CommandFailure` when there is no such run or log. The lane was
/// checked with the command line (`KnownLanes`).
func logs(_ request: LogsRequest) throws -> LogsResponse {
  let lane = request.lane
  let store: HistoryStore
  switch try HistoryAccess.openForReading(root: request.root, environment: request.environment, command: "logs") {
  case .none(let none): return .noHistory(none)
  case .store(let opened): store = opened
  }
  var runs = try store.recentRuns(limit: 1000, lane: lane)
  if let wanted = request.run {
    runs = runs.filter { $0.id.hasPrefix(wanted) || $0.logID.hasPrefix(wanted) }
    guard !runs.isEmpty else { throw CommandFailure(message: "duet logs: error: no run '\(wanted)' with lane \(lane) in the history", code: ExitCode.failed) }
    runs = [runs[0]]
  }
  guard !runs.isEmpty else {
    throw CommandFailure(message: "duet logs: error: lane '\(lane)' has no recorded run", code: ExitCode.failed)
  }
  // The newest run (of those chosen) in which the lane printed something.
  var found: (path: String, logID: String)?
  for run in runs {
    let steps = try store.steps(ofRuns: [run.id]).filter { $0.lane == lane }
    if let path = steps.sorted(by: { $0.attempt < $1.attempt }).last(where: { $0.logPath != nil })?.logPath {
      found = (path, run.logID)
      break
    }
  }
  guard let (path, logID) = found else {
    let which = request.run.map { "run \($0)" } ?? "any recorded run"
    throw CommandFailure(message: "duet logs: error: lane '\(lane)' left no log in \(which) (a lane that prints nothing, or was skipped or cached, has none)", code: ExitCode.failed)
  }
  let contents: Data?
  do {
    contents = try LogLocation.read(logPath: path, logID: logID, root: request.root)
  } catch {
    throw CommandFailure(message: "duet logs: error: \(store.path): \(error)", code: ExitCode.failed)
  }
  guard let data = contents else {
    throw CommandFailure(message: "duet logs: error: \(LogLocation.missingReason(logPath: path, logID: logID, root: request.root))", code: ExitCode.failed)
  }
  return .log(data)
}
