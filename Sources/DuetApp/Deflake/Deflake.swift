import DuetHooks
import DuetModel
import DuetProcess
import DuetRun
import DuetSupport
import Foundation
import DuetHistory

/// How a caller hands deflake the signals while it runs: `onSignal` stops
/// every run under way; the body returns once they ended.
package typealias DeflakeSignals = (_ onSignal: @escaping @Sendable () -> Void, _ body: () -> Void) -> Void

/// `duet deflake`: runs one lane `runs` times on its current inputs (not its
/// needs, not from the cache), each run a verify recorded in the history as
/// any other, and says how often it failed, with the 95% interval of that rate.
/// With `jobs` above 1, each of `jobs` workers runs in a temporary worktree of
/// the current tree (`CurrentTreeCheckout`) and records into the tree's own store.
/// Throws `UsageError` for an unknown lane or a `--test` of a lane without
/// reports, `CommandFailure` for a lane that cannot be measured here.
package func deflake(_ request: DeflakeRequest, observer: VerifyObserver = .silent,
                     signals: DeflakeSignals = { _, body in body() }) throws -> DeflakeResponse {
  let lane = try DeflakeState.checkedLane(request)
  let state = DeflakeState(request, laneIndex: lane)
  signals({ state.interruptAll() }) {
    let workers = min(request.jobs, request.runs)
    if workers <= 1 {
      state.work(root: request.root, environment: request.environment, observer: observer)
      return
    }
    // Made one after another (git locks the index for each), removed the same way at the end.
    guard let checkouts = state.checkouts(workers) else { return }
    let done = DispatchSemaphore(value: 0)
    for checkout in checkouts {
      let work = { state.inWorktree(checkout, observer: observer); done.signal() }
      // No thread to give: the worker runs here, the others after it.
      if DetachedThread.start(work) != 0 { work() }
    }
    for _ in checkouts { done.wait() }
    for checkout in checkouts { state.remove(checkout, observer: observer) }
  }
  if let failure = state.failure { throw failure }
  return DeflakeResponse(lane: request.lane, test: request.test, tally: state.tally, jobs: min(request.jobs, request.runs))
}

/// The runs of one deflake as its workers share them: the next run to claim,
/// the tally, the first failure, and the interrupt of each run under way.
final class DeflakeState: Sendable {
  let request: DeflakeRequest
  let laneIndex: Int
  let shared = Locked(Shared())
  /// The warnings already passed on: a hundred runs say each once.
  let warned = Locked(Set<String>())

  struct Shared {
    var claimed = 0
    var tally = DeflakeTally()
    var failure: CommandFailure?
    var interrupted = false
    var interrupts: [Int: @Sendable () -> Void] = [:]
  }

  init(_ request: DeflakeRequest, laneIndex: Int) {
    self.request = request
    self.laneIndex = laneIndex
  }

  var tally: DeflakeTally { shared.withLock { $0.tally } }
  var failure: CommandFailure? { shared.withLock { $0.failure } }

  /// The lane's index in the manifest; a usage error for a lane it does not
  /// have, or a `--test` of a lane whose reports nobody reads.
  static func checkedLane(_ request: DeflakeRequest) throws -> Int {
    let manifest = try TreeManifest.load(root: request.root).manifest
    let names = manifest.lanes.map(\.name)
    guard let index = names.firstIndex(of: request.lane) else {
      let list = names.isEmpty ? "it has none" : "its lanes: \(names.joined(separator: ", "))"
      throw UsageError(message: "no lane '\(ControlText.shown(request.lane))' in \(manifest.path)\(Suggestion.hint(for: request.lane, in: names)) (\(list))", command: "deflake")
    }
    if request.test != nil && manifest.lanes[index].reports.isEmpty {
      throw UsageError(message: "--test reads the test cases of the lane's reports, and \(request.lane) has no reports: in \(manifest.path)", command: "deflake")
    }
    return index
  }

  /// Stops every run under way and starts no other (Ctrl-C).
  func interruptAll() {
    let interrupts = shared.withLock { state -> [@Sendable () -> Void] in
      state.interrupted = true
      state.tally.interrupted = true
      return Array(state.interrupts.values)
    }
    interrupts.forEach { $0() }
  }

  /// The next run's number, or nil when every run is claimed or the deflake stopped.
  private func claim() -> Int? {
    shared.withLock { state in
      guard state.claimed < request.runs, state.failure == nil, !state.interrupted else { return nil }
      state.claimed += 1
      return state.claimed
    }
  }

  /// A temporary worktree of the current tree for each worker; nil (the failure
  /// noted) when one cannot be made, after removing those that were.
  func checkouts(_ count: Int) -> [(top: URL, root: URL)]? {
    var made: [(top: URL, root: URL)] = []
    for _ in 0..<count {
      do { made.append(try CurrentTreeCheckout.make(root: request.root, environment: request.environment)) } catch {
        shared.withLock { if $0.failure == nil { $0.failure = CommandFailure(message: "duet deflake: error: \(error)", code: ExitCode.usage) } }
        for checkout in made { PushedCommit.remove(checkout.top, root: request.root, environment: request.environment) }
        return nil
      }
    }
    return made
  }

  /// One worker in its temporary worktree, recording into the tree's store.
  func inWorktree(_ checkout: (top: URL, root: URL), observer: VerifyObserver) {
    var environment = request.environment
    // The history the runs record into is the tree's, wherever they run.
    environment[.history] = HistoryStore.defaultPath(root: request.root, environment: request.environment) ?? "off"
    work(root: checkout.root, environment: environment, observer: observer)
  }

  /// Keeps a worker's logs in the tree's `.duet/logs` and removes its worktree.
  func remove(_ checkout: (top: URL, root: URL), observer: VerifyObserver) {
    if let problem = PushedCommit.keepLogs(from: checkout.root, into: request.root) { observer.warning(problem) }
    PushedCommit.remove(checkout.top, root: request.root, environment: request.environment)
  }

  /// Runs claimed runs in `root` until none is left.
  func work(root: URL, environment: [String: String], observer: VerifyObserver) {
    while let number = claim() {
      do { try runOnce(number, root: root, environment: environment, observer: observer) } catch {
        shared.withLock { if $0.failure == nil { $0.failure = CommandFailure(message: "duet deflake: error: \(error)", code: ExitCode.usage) } }
      }
    }
  }
}
