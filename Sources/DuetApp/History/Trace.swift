import DuetRun
import DuetSupport
import Foundation

/// `duet trace [RUN]`: a recorded run as Chrome Trace Event JSON.
package struct TraceRequest: Sendable {
  package var root: URL
  /// The invocation's environment: `DUET_HISTORY` says where the store is.
  package var environment: [String: String]
  /// A run id or log id, or a prefix of one; nil for the newest run.
  package var run: String?
  package init(root: URL, environment: [String: String]) {
    self.root = root
    self.environment = environment
  }
}

package enum TraceResponse: CommandResponse {
  /// No store yet: said on stdout, exit 1.
  case noHistory(NoHistory)
  case trace(RunTimeline)

  package var exitCode: Int32 {
    if case .noHistory = self { return ExitCode.failed }
    return ExitCode.pass
  }

  package func printout(_ format: TextFormat) -> Printout {
    switch self {
    case .noHistory(let none): return none.printout(json: false)
    case .trace(let timeline):
      var printout = Printout()
      printout.json(TraceJSON.text(timeline))
      return printout
    }
  }
}

/// Throws `CommandFailure` when the store is off or unreadable or has no such run.
package func trace(_ request: TraceRequest) throws -> TraceResponse {
  switch try HistoryAccess.openForReading(root: request.root, environment: request.environment, command: "trace") {
  case .none(let none): return .noHistory(none)
  case .store(let store):
    guard let timeline = try recordedTimeline(store, root: request.root, wanted: request.run) else {
      throw CommandFailure(message: "duet trace: error: no run \(request.run.map { "'\($0)' " } ?? "")in the history", code: ExitCode.failed)
    }
    return .trace(timeline)
  }
}
