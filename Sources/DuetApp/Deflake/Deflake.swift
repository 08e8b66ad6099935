import DuetHooks
import DuetModel
import DuetProcess
import DuetRun
import DuetSupport
import Foundation
import DuetHistory

/// How a caller hands deflake the signals while it runs: `onSignal` stops
/// every run under way; the body returns once they ended.
typealias DeflakeSignals = (_ onSignal: @escaping @Sendable () -> Void, _ body: () -> Void) -> Void

/// `duet deflake`: runs one lane `runs` times on its current inputs (not its
/// needs, not from the cache), each run a verify recorded in the history as
/// any other, and says how often it failed, with the 95% interval of that rate.
/// With `jobs` above 1, each of `jobs` workers runs in a temporary worktree of
/// the current tree (`CurrentTreeCheckout`) and records into the tree's own store.
/// Throws `UsageError` for an unknown lane or a `--test` of a lane without
/// reports, `CommandFailure` for a lane that cannot be measured here.
func deflake(_ request: DeflakeRequest, observer: VerifyObserver = .silent,
                     signals: DeflakeSignals = { _, body in body() }) throws -> DeflakeResponse {
  let lane = try DeflakeState.checkedLane(request)
  let state = DeflakeState(request, laneIndex: lane)
  var checkoutFailure: (any Error)?
  signals({ state.interruptAll() }) {
    let workers = min(request.jobs, request.runs)
    if workers <= 1 {
      state.work(root: request.root, environment: request.environment, observer: observer)
      return
    }
    // Made one after another (git locks the index for each), removed the same way at the end.
    let checkouts: [(top: URL, root: URL)]
    do { checkouts = try state.checkouts(workers) } catch {
      checkoutFailure = error
      return
    }
    let done = DispatchSemaphore(value: 0)
    for checkout in checkouts {
      let work = { state.inWorktree(checkout, observer: observer); done.signal() }
      // No thread to give: the worker runs here, the others after it.
      if DetachedThread.start(work) != 0 { work() }
    }
    for _ in checkouts { done.wait() }
    for checkout in checkouts { state.remove(checkout, observer: observer) }
  }
  if let checkoutFailure {
    let machine = (checkoutFailure as? CurrentTreeCheckout.Failure)?.machineShort == true
    throw CommandFailure(message: "duet deflake: error: \(checkoutFailure)", code: machine ? ExitCode.machine : ExitCode.usage)
  }
  let (tally, failure) = state.result
  if let failure { throw failure }
  return DeflakeResponse(lane: request.lane, test: request.test, tally: tally, jobs: min(request.jobs, request.runs))
}

/// The runs of one deflake as its workers share them: the next run to claim,
/// the tally, the first failure; and Ctrl-C, which each run under way hears.
final class DeflakeState: Sendable {
  let request: DeflakeRequest
  let laneIndex: Int
  let shared = Locked(Shared())
  /// Ctrl-C: every run under way is stopped, and no other claimed.
  let stop = StopRequest()
  /// The warnings already passed on: a hundred runs say each once.
  let warned = Locked(Set<String>())

  struct Shared {
    var claimed = 0
    var tally = DeflakeTally()
    var failure: CommandFailure?
    /// A run ended interrupted: no other is claimed.
    var interrupted = false

    /// Keeps the first failure: the one that stopped the deflake.
    mutating func fail(_ error: any Error) {
      if failure == nil { failure = CommandFailure(message: "duet deflake: error: \(error)", code: ExitCode.usage) }
    }
  }

  init(_ request: DeflakeRequest, laneIndex: Int) {
    self.request = request
    self.laneIndex = laneIndex
  }

  /// What the runs came to, once every worker ended: the tally, or the failure that stopped them.
  var result: (tally: DeflakeTally, failure: CommandFailure?) {
    let interrupted = stop.isRequested
    return shared.withLock { state in
      var tally = state.tally
      if interrupted { tally.interrupted = true }
      return (tally, state.failure)
    }
  }

  /// The lane's index in the manifest; a usage error for a lane it does not
  /// have, or a `--test` of a lane whose reports nobody reads.
  static func checkedLane(_ request: DeflakeRequest) throws -> Int {
    let manifest = try TreeManifest.load(root: request.root).manifest
    let names = manifest.lanes.map(\.name)
    guard let index = names.firstIndex(of: request.lane) else {
      // The command line's lane is checked before (`KnownLanes`); a request made elsewhere, here.
      throw UsageError(message: LaneSelector.unknown(request.lane, origin: nil, glob: false, manifestPath: manifest.path, names: names),
                       command: "deflake")
    }
    if request.test != nil && manifest.lanes[index].reports.isEmpty {
      throw UsageError(message: "--test reads the test cases of the lane's reports, and \(request.lane) has no reports: in \(manifest.path)", command: "deflake")
    }
    return index
  }

  /// Stops every run under way and starts no other (Ctrl-C).
  func interruptAll() { stop.request() }

  /// Counts the run that ended (`ran`: its record, or the error that kept it
  /// from one), then claims the next: false when every run is claimed or the
  /// deflake stopped.
  private func claim(after ran: Result<(LaneVerdict, fingerprint: String?)?, any Error>?) -> Bool {
    let stopped = stop.isRequested
    return shared.withLock { state in
      switch ran {
      case .success(let counted?): count(counted.0, fingerprint: counted.fingerprint, into: &state)
      case .failure(let error): state.fail(error)
      case .success(nil), nil: break
      }
      guard state.claimed < request.runs, state.failure == nil, !state.interrupted, !stopped else { return false }
      state.claimed += 1
      return true
    }
  }

  /// A temporary worktree of the current tree for each worker; throws when one
  /// cannot be made, after removing those that were.
  func checkouts(_ count: Int) throws -> [(top: URL, root: URL)] {
    var made: [(top: URL, root: URL)] = []
    for _ in 0..<count {
      do { made.append(try CurrentTreeCheckout.make(root: request.root, environment: request.environment)) } catch {
        for checkout in made { PushedCommit.remove(checkout.top, root: request.root, environment: request.environment) }
        throw error
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
    var claimed = claim(after: nil)
    while claimed {
      claimed = claim(after: Result { try runOnce(root: root, environment: environment, observer: observer) })
    }
  }
}
