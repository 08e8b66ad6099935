import DuetRun
import DuetSupport
import Foundation
import DuetPages
import DuetHistory

/// `duet trace [RUN] [--html FILE]`: a recorded run as Chrome Trace Event JSON,
/// or its slices drawn on a page that stands alone.
struct TraceRequest: Sendable {
  var root: URL
  /// The invocation's environment: `DUET_HISTORY` says where the store is.
  var environment: [String: String]
  /// A run id or log id, or a prefix of one; nil for the newest run.
  var run: String?
  /// `--html FILE`, absolute: write the slices as a page there instead of printing the JSON.
  var htmlPath: String?
  init(root: URL, environment: [String: String]) {
    self.root = root
    self.environment = environment
  }
}

enum TraceResponse: CommandResponse {
  /// No store yet: said on stdout, exit 1.
  case noHistory(NoHistory)
  case trace(RunTimeline)
  /// The page was written to this path.
  case page(String)

  var exitCode: Int32 {
    if case .noHistory = self { return ExitCode.failed }
    return ExitCode.pass
  }

  func printout(_ format: TextFormat) -> Printout {
    switch self {
    case .noHistory(let none): return none.printout(json: false)
    case .trace(let timeline):
      var printout = Printout()
      printout.json(TraceJSON.text(timeline))
      return printout
    case .page(let path):
      var printout = Printout()
      printout.out("trace: \(path)")
      return printout
    }
  }
}

/// Throws `CommandFailure` when the store is off or unreadable or has no such run.
func trace(_ request: TraceRequest) throws -> TraceResponse {
  switch try HistoryAccess.openForReading(root: request.root, environment: request.environment, command: "trace") {
  case .none(let none): return .noHistory(none)
  case .store(let store):
    guard let timeline = try recordedTimeline(store, root: request.root, wanted: request.run) else {
      throw CommandFailure(message: "duet trace: error: no run \(request.run.map { "'\($0)' " } ?? "")in the history", code: ExitCode.failed)
    }
    guard let path = request.htmlPath else { return .trace(timeline) }
    do {
      try AtomicFile.write(Data(TracePage.html(timeline).utf8), toAbsolute: path)
    } catch {
      throw CommandFailure(message: "duet trace: error: cannot write \(path): \(String(describing: error))", code: ExitCode.failed)
    }
    return .page(path)
  }
}
