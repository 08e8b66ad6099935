import DuetRun
import DuetSupport
import Foundation

/// One run of a deflake: a verify of the lane alone (no needs, no cache),
/// recorded like any other, and counted.
extension DeflakeState {
  /// The run's record of the lane and its fingerprint; nil when the lane has no record.
  func runOnce(root: URL, environment: [String: String], observer: VerifyObserver) throws -> (LaneVerdict, fingerprint: String?)? {
    var verifyRequest = VerifyRequest(root: root, duetVersion: request.duetVersion, environment: environment)
    // The lane asked for is measured even where DUET_SKIP would leave it out.
    verifyRequest.options.skip = []
    verifyRequest.options.lanes = [request.lane]
    verifyRequest.options.noDeps = true
    verifyRequest.options.noCache = true
    verifyRequest.commandLine = request.commandLine
    verifyRequest.builtinIdentity = request.builtinIdentity
    let response = try verify(verifyRequest, observer: onceEach(observer), signals: signalGuard)
    guard case .ran(let verdict, let decided) = response,
          let record = verdict.lanes.first(where: { $0.name == request.lane }) else { return nil }
    return (record, decided?.fingerprints.fingerprints[laneIndex])
  }

  /// Adds the run to the tally, or ends the deflake when the lane did not run.
  func count(_ record: LaneVerdict, fingerprint: String?, into state: inout Shared) {
    switch record.outcome {
    case .interrupted, .cancelled:
      state.interrupted = true
      state.tally.interrupted = true
    case .skipped, .unaffected:
      let reason = record.reason.map { " (\($0))" } ?? ""
      if state.failure == nil {
        state.failure = CommandFailure(message: "duet deflake: error: \(request.lane) was skipped\(reason): nothing to measure", code: ExitCode.usage)
      }
    case .error:
      if state.failure == nil {
        state.failure = CommandFailure(message: "duet deflake: error: duet could not start \(request.lane) (\(record.reason ?? "no resources")): nothing measured", code: ExitCode.machine)
      }
    default:
      state.tally.add(record, fingerprint: fingerprint, test: request.test)
    }
  }

  /// Ctrl-C stops the run while it goes, as every other run under way.
  private var signalGuard: SignalGuard {
    { [stop] onSignal, body in stop.listening(onSignal, during: body) }
  }

  /// The observer's warnings and errors, each said once over all the runs.
  private func onceEach(_ observer: VerifyObserver) -> VerifyObserver {
    let warned = self.warned
    let first: @Sendable (String) -> Bool = { text in warned.withLock { $0.insert(text).inserted } }
    return VerifyObserver(warning: { if first($0) { observer.warning($0) } },
                          error: { if first($0) { observer.error($0) } })
  }
}
