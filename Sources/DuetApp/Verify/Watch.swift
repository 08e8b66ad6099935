import DuetModel
import DuetProcess
import DuetRun
import DuetSupport
import DuetTestReports
import Foundation

/// What stops `duet verify --watch`: a signal (Ctrl-C) interrupts the run in
/// progress, or wakes the wait for changes; either way the watch ends.
final class WatchControl: Sendable {
  private let stopRequest = StopRequest()

  init() {}

  /// Ends the watch: the run in progress is interrupted, the wait woken.
  func stop() { stopRequest.request() }

  var isStopped: Bool { stopRequest.isRequested }

  /// The signal guard each run of the watch gets: a stop while it runs interrupts it.
  var signals: SignalGuard {
    { [stopRequest] onSignal, body in stopRequest.listening(onSignal, during: body) }
  }

  /// A stop wakes `watcher`'s wait for changes.
  func watching(_ watcher: any ChangeSource) {
    stopRequest.listen { watcher.wake() }
  }
}

/// What the watch tells between runs; each run itself talks through `verify`.
struct WatchObserver: Sendable {
  /// A run's response, to print as `duet verify` does.
  var ran: @Sendable (VerifyResponse) -> Void
  /// Files changed since the last run, and why each lane runs for them (empty: none is affected).
  var changed: @Sendable (_ files: [String], _ lanes: [(name: String, reason: String)]) -> Void
  /// Files that changed while a run was going (a lane may have written them): not acted on.
  var changedDuringRun: @Sendable ([String]) -> Void
  /// Waiting for the next change.
  var waiting: @Sendable () -> Void
  /// A run that could not start (a manifest made invalid by an edit): the watch goes on.
  var failed: @Sendable (Error) -> Void
  /// Lanes (with their outcome) still failing from an earlier run of the watch,
  /// which the last run did not run: the tree does not pass while one is.
  var stillFailing: @Sendable ([(name: String, outcome: String)]) -> Void
  /// The watcher lost the tree's events or the tree itself, and what it did: one line each.
  var noticed: @Sendable (WatchNotice) -> Void

  init(ran: @escaping @Sendable (VerifyResponse) -> Void, changed: @escaping @Sendable ([String], [(name: String, reason: String)]) -> Void,
              changedDuringRun: @escaping @Sendable ([String]) -> Void, waiting: @escaping @Sendable () -> Void,
              failed: @escaping @Sendable (Error) -> Void,
              stillFailing: @escaping @Sendable ([(name: String, outcome: String)]) -> Void = { _ in },
              noticed: @escaping @Sendable (WatchNotice) -> Void = { _ in }) {
    self.ran = ran
    self.changed = changed
    self.changedDuringRun = changedDuringRun
    self.waiting = waiting
    self.failed = failed
    self.stillFailing = stillFailing
    self.noticed = noticed
  }
}

/// `duet verify --watch`: runs `request`, then waits for files to change
/// (told by the kernel, no polling), lets them settle, and runs again the lanes
/// they affect, by the rule `--since` uses (`VerifyOptions.changed`, decided by
/// `AffectedLanes`); an edit to the manifest runs every selected lane. Files a
/// run changes (a lane writing its own input) are reported but start no run,
/// so a lane cannot make the watch loop. Each run is recorded as any verify
/// is. What counts as a change is what differs from the tree the last run
/// saw, less the lanes' own files (`WatchedChanges`). Returns the exit code:
/// 130 once stopped, else the last run's.
///
/// `ownOutput` names the files duet's own output goes to (`--watch > watch.log`
/// inside the tree): they, a `--timings` page in the tree and duet's temporary
/// files change with every run and are never a change to act on.
func watch(_ request: VerifyRequest, control: WatchControl, verifyObserver: VerifyObserver, observer: WatchObserver,
                  ownOutput: Set<FileWatcher.FileIdentity> = []) throws -> Int32 {
  let source = try watcher(for: request, ownOutput: ownOutput)
  return try watch(request, source: source, clock: SystemClock(), control: control, verifyObserver: verifyObserver, observer: observer)
}

/// The watch on any change source and clock: the kernel's and the machine's,
/// or a test's script and fake clock, which drive it with no sleep.
func watch(_ request: VerifyRequest, source: any ChangeSource, clock: any RunClock, control: WatchControl,
           verifyObserver: VerifyObserver, observer: WatchObserver) throws -> Int32 {
  control.watching(source)
  var request = request
  request.manifest = nil
  var changes = WatchedChanges(root: request.root, saw: source.snapshot())
  var response = try verify(request, observer: verifyObserver, signals: control.signals)
  observer.ran(response)
  var failing = FailingLanes()
  failing.note(response, observer: observer)
  var tree = WatchedTree(root: request.root.path, observer: observer)
  var quarantine = QuarantineWatch(root: request.root, lanes: laneNames(request))
  var quiet = QuietRepeats()
  var justRan = true
  // Changes seen during the last run, acted on at once; and the ones that
  // started the run now going: the same again after it is a lane writing them.
  var pending: [String]?
  var rerunFor: [String]?
  while !control.isStopped && response.exitCode != 130 {
    if justRan {
      let during = changes.changes(tree.take(source.drain()))
      if !during.isEmpty {
        if during == rerunFor { observer.changedDuringRun(during) } else { pending = during }
      }
    }
    justRan = false
    let files: [String]
    if let seen = pending {
      // A save made while lanes ran: the run that just ended did not see it.
      files = seen
      pending = nil
      rerunFor = seen
    } else {
      if !tree.isGone && !quiet.silent { observer.waiting() }
      guard let events = settle(source, clock: clock) else { break }
      files = changes.changes(tree.take(events))
      rerunFor = nil
      if files.isEmpty { continue }
    }
    guard let (next, prepared) = runRequest(for: files, request, quarantine: &quarantine, quiet: &quiet, verifyObserver: verifyObserver,
                                                 observer: observer) else { continue }
    changes.saw = source.snapshot()
    response = run(prepared, next, observer: verifyObserver, signals: control.signals)
    observer.ran(response)
    failing.note(response, observer: observer)
    justRan = true
  }
  if control.isStopped || response.exitCode == 130 { return 130 }
  return response.exitCode == ExitCode.pass && !failing.lanes.isEmpty ? ExitCode.failed : response.exitCode
}

/// The events of a burst: blocks for the first, then takes more until
/// `quiet` seconds pass without one (at most `longest` seconds in all, by
/// `clock`); nil once the source was woken (the watch ends).
func settle(_ source: any ChangeSource, clock: any RunClock, quiet: Double = 0.2, longest: Double = 2) -> [WatchEvent]? {
  guard var events = source.next(timeout: nil) else { return nil }
  let end = clock.deadline(after: longest)
  while true {
    // Read once: the clock moves between two readings.
    let now = clock.now
    guard now < end else { break }
    guard let more = source.next(timeout: min(quiet, Double(end - now) / 1e9)) else { return nil }
    if more.isEmpty { break }
    events += more
  }
  return events
}

/// The run a change makes, planned once and said to the observer before it
/// runs; nil when it runs nothing (no lane affected, or the manifest cannot be
/// read, which is said). The plan's own notices follow the watch's line.
private func runRequest(for files: [String], _ request: VerifyRequest, quarantine: inout QuarantineWatch, quiet: inout QuietRepeats,
                        verifyObserver: VerifyObserver, observer: WatchObserver) -> (VerifyRequest, PreparedVerify)? {
  let everyLane = files.first { $0 == Manifest.defaultPath || $0 == ParityManifest.defaultPath }
  let names = laneNames(request)
  // An edit to the quarantine re-judges the lanes whose entries it changed.
  let rejudged = files.contains(QuarantineFile.defaultPath)
    ? quarantine.changedLanes(root: request.root, lanes: names).filter { request.options.lanes.isEmpty || request.options.lanes.contains($0) }
    : []
  if everyLane == nil, !rejudged.isEmpty {
    return rejudge(rejudged, files: files, request, quiet: &quiet, verifyObserver: verifyObserver, observer: observer)
  }
  var next = request
  if everyLane == nil { next.options.changed = ChangedFiles.Result(base: "watch", description: "the last run", files: files) }
  let allLanes = everyLane.map { [(name: "every lane", reason: "\($0) changed")] }
  let held = HeldNotices()
  let prepared: PreparedVerify
  do { prepared = try prepareVerify(next, observer: held.observer(verifyObserver)) } catch {
    // An edit that broke the manifest is said as the change it is, then the error.
    if let allLanes { quiet.changed(files, allLanes, tell: observer) }
    observer.failed(error)
    return nil
  }
  let lanes = allLanes ?? affected(prepared)
  quiet.changed(files, lanes, tell: observer)
  guard !lanes.isEmpty else { return nil }
  held.release(to: verifyObserver)
  return (next, prepared)
}

/// The run an edit to the quarantine makes: the lanes whose entries it
/// changed, with the lanes the other changed files affect. Each runs unless
/// it is cached (a pass the quarantine excused never is).
private func rejudge(_ lanes: [String], files: [String], _ request: VerifyRequest, quiet: inout QuietRepeats, verifyObserver: VerifyObserver,
                     observer: WatchObserver) -> (VerifyRequest, PreparedVerify)? {
  var reasons = lanes.map { (name: $0, reason: "its entries in \(QuarantineFile.defaultPath) changed") }
  let others = files.filter { $0 != QuarantineFile.defaultPath }
  if !others.isEmpty {
    var changed = request
    changed.options.changed = ChangedFiles.Result(base: "watch", description: "the last run", files: others)
    if let prepared = try? prepareVerify(changed, observer: HeldNotices().observer(verifyObserver)) {
      reasons += affected(prepared).filter { !lanes.contains($0.name) }
    }
  }
  var next = request
  next.options.lanes = reasons.map(\.name)
  let held = HeldNotices()
  let prepared: PreparedVerify
  do { prepared = try prepareVerify(next, observer: held.observer(verifyObserver)) } catch {
    observer.failed(error)
    return nil
  }
  quiet.changed(files, reasons, tell: observer)
  held.release(to: verifyObserver)
  return (next, prepared)
}

/// The manifest's lane names, for reading the quarantine; none when it does not load.
private func laneNames(_ request: VerifyRequest) -> Set<String> {
  Set((try? TreeManifest.load(root: request.root))?.manifest.lanes.map(\.name) ?? [])
}

/// The lanes a prepared run starts, each with why, in start order; none when the change touches no lane.
private func affected(_ prepared: PreparedVerify) -> [(name: String, reason: String)] {
  guard case .planned(let plan, _, _) = prepared else { return [] }
  return plan.startOrder.compactMap { index in
    guard case .runs(let reason)? = plan.affected[index] else { return nil }
    return (name: plan.manifest.lanes[index].name, reason: reason)
  }
}

/// A verify observer's notices and warnings held back while the run is
/// planned, so they print after the watch's "changed:" line, as they would if
/// the run had been planned after it.
private final class HeldNotices: Sendable {
  private struct Line: Sendable {
    var isWarning: Bool
    var text: String
  }

  private let lines = Locked<[Line]>([])

  func observer(_ base: VerifyObserver) -> VerifyObserver {
    var holding = base
    holding.notice = { text in self.hold(false, text) }
    holding.warning = { text in self.hold(true, text) }
    return holding
  }

  private func hold(_ isWarning: Bool, _ text: String) {
    lines.withLock { $0.append(Line(isWarning: isWarning, text: text)) }
  }

  func release(to observer: VerifyObserver) {
    for line in lines.withLock({ $0 }) {
      if line.isWarning { observer.warning(line.text) } else { observer.notice(line.text) }
    }
  }
}

/// The lanes of the watched tree that failed when they last ran: a run of a
/// few affected lanes says nothing of the others, so the watch keeps the tree's
/// state and says which lanes still fail though this run passed.
struct FailingLanes {
  /// Lane name to the outcome it last ended with (`fail`, `timeout`, `error`).
  private(set) var lanes: [String: String] = [:]

  mutating func note(_ response: VerifyResponse, observer: WatchObserver) {
    guard case .ran(let verdict, _) = response else { return }
    var ranNow = Set<String>()
    for record in verdict.lanes {
      switch record.outcome {
      case .fail, .timeout, .error:
        lanes[record.name] = record.outcome.rawValue
        ranNow.insert(record.name)
      case .pass, .flaky, .cached:
        lanes[record.name] = nil
      default:
        continue
      }
    }
    let earlier = lanes.filter { !ranNow.contains($0.key) }.sorted { $0.key < $1.key }.map { (name: $0.key, outcome: $0.value) }
    if !earlier.isEmpty { observer.stillFailing(earlier) }
  }
}

/// The watcher of the request's tree, told which files are duet's own.
private func watcher(for request: VerifyRequest, ownOutput: Set<FileWatcher.FileIdentity>) throws -> FileWatcher {
  let root = request.root.standardizedFileURL.path
  let timings = request.timingsPath.flatMap { $0.hasPrefix(root + "/") ? String($0.dropFirst(root.count + 1)) : nil }
  do { return try FileWatcher(root: request.root, ownFiles: ownOutput, ownPaths: Set([timings].compactMap { $0 })) } catch {
    throw UsageError(message: "--watch: \(error)", command: "verify")
  }
}
