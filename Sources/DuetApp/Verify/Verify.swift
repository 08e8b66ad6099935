import DuetAdopt
import DuetModel
import DuetRun
import DuetProcess
import DuetSupport
import Foundation
import DuetHistory

/// The part of a run a signal may stop, and what to do when one comes. The
/// binary passes its signal policy; the default runs the body as it is.
typealias SignalGuard = (_ onSignal: @escaping @Sendable () -> Void, _ body: () -> RunVerdict) -> RunVerdict

/// `duet verify` as a call: loads the tree's manifest, narrows the lanes to
/// the request's change, shard or failures, runs them as a DAG, writes the CI
/// reports and the history, and returns the one verdict.
/// Throws `ManifestError` for the manifest, `UsageError` for an option the tree
/// cannot satisfy and `VerifyFailure` for a history `--failed` cannot read; all are exit 2.
func verify(_ request: VerifyRequest, observer: VerifyObserver = .silent,
                   signals: SignalGuard = { _, body in body() }) throws -> VerifyResponse {
  run(try prepareVerify(request, observer: observer), request, observer: observer, signals: signals)
}

/// A verify planned and not yet run: its plan (the lanes it selected) and the
/// pipeline that will decide and run it, or the response that ends it before
/// any lane could run. The watch says which lanes a change runs from this same
/// plan, then runs it.
enum PreparedVerify {
  case planned(VerifyPlan, VerifyPipeline, started: Date)
  case done(VerifyResponse)
}

/// The first half of `verify`: the tree loaded, the lanes narrowed, the plan made.
func prepareVerify(_ request: VerifyRequest, observer: VerifyObserver) throws -> PreparedVerify {
  let started = Date()
  let tree = try request.manifest ?? TreeManifest.load(root: request.root)
  if tree.isDerived { observer.notice(DerivedLanes.notice(tree.manifest.path).text) }
  var options = request.options
  let historyPath = HistoryStore.defaultPath(root: request.root, environment: request.environment)
  if let base = request.changeBase {
    do { options.changed = try ChangedFiles.read(base, root: request.root, environment: request.environment) } catch { throw UsageError(message: error.message, command: "verify") }
  }
  if let spec = request.shard {
    let lanes = ShardSelection.lanes(spec, manifest: tree.manifest, historyPath: historyPath, observer: observer)
    guard !lanes.isEmpty else {
      let verdict = RunVerdict.empty
      _ = CIReports.save(verdict, request.reports, started: started, observer: observer)
      return .done(.ran(verdict, decided: nil))
    }
    options.lanes = lanes
    options.noDeps = true
  }
  if request.failedOnly {
    switch try lanesToRetry(tree.manifest, historyPath: historyPath) {
    case .nothing(let sentence): return .done(.nothingToRun(sentence))
    case .lanes(let lanes, let notice):
      observer.notice(notice)
      options.lanes = lanes
    }
  }
  if request.failedTestsOnly {
    switch try failedTestsToRun(tree.manifest, historyPath: historyPath) {
    case .nothing(let sentence): return .done(.nothingToRun(sentence))
    case .tests(let found, let notice):
      observer.notice(notice)
      options.lanes = found.keys.sorted()
      options.failedTests = found
    }
  }
  let (plan, pipeline) = try preparePipeline(request, manifest: tree.manifest, options: options, historyPath: historyPath, observer: observer)
  return .planned(plan, pipeline, started: started)
}

/// What `--failed-tests` finds: per lane, the cases to run again, or why there are none.
private enum FailedTestsFound {
  case tests([String: FailedTestsOnly], notice: String)
  case nothing(String)
}

/// `--failed-tests`: the lanes with `reports:` whose newest recorded outcome is
/// a failure with failing test cases in its last attempt, and those cases.
private func failedTestsToRun(_ manifest: Manifest, historyPath: String?) throws(VerifyFailure) -> FailedTestsFound {
  let names = manifest.lanes.filter { !$0.reports.isEmpty && $0.platformSkipReason() == nil }.map(\.name)
  guard let historyPath, FileManager.default.fileExists(atPath: historyPath) else {
    return .nothing("duet verify --failed-tests: no run recorded yet; nothing to run")
  }
  let found: [String: FailedTestsOnly]
  do { found = try HistoryStore(path: historyPath, readOnly: true).failedTestsOfLastRun(lanes: names) } catch { throw .history("\(error)") }
  guard !found.isEmpty else {
    return .nothing("duet verify --failed-tests: no lane's last run failed a test case; nothing to run")
  }
  let parts = found.sorted { $0.key < $1.key }.map { lane, only in
    "\(lane): \(only.tests.count) of \(only.total) (\(FingerprintParts.listed(only.tests, limit: 3)))"
  }
  return .tests(found, notice: "duet verify --failed-tests: " + parts.joined(separator: "; "))
}

/// The second half of `verify`: runs the planned verify's pipeline (or only
/// decides it, under `--dry-run`) and returns the verdict.
func run(_ prepared: PreparedVerify, _ request: VerifyRequest, observer: VerifyObserver, signals: SignalGuard) -> VerifyResponse {
  switch prepared {
  case .done(let response):
    return response
  case .planned(let plan, let pipeline, _) where request.dryRun:
    let decided = pipeline.decide(plan, recording: false).decided
    decided.warnings.forEach(observer.warning)
    return .dryRun(decided)
  case .planned(let plan, let pipeline, let started):
    // Opened before any lane starts: what a lane writes into the store is in no seal.
    let seal = request.sealsVerdicts ? pipeline.historyPath.map { (store: $0, opened: SealedStore.opening($0)) } : nil
    if let warning = seal?.opened.warning { observer.warning(warning) }
    let (ran, decided, rows) = run(pipeline, plan, request, observer: observer, signals: signals, started: started)
    var verdict = ran
    // A seal that cannot be written hands on nothing the next jobs believe: as a report that could not be written, the job fails.
    if let seal, let error = SealedStore.close(seal.opened.seal, recorded: rows, store: seal.store) { verdict.reportErrors.append(error) }
    return .ran(verdict, decided: decided)
  }
}

/// What `--failed` finds: the lanes to run again and why, or the sentence saying why there are none.
private enum Retry {
  case lanes([String], notice: String)
  case nothing(String)
}

/// `--failed`: every lane of the manifest whose newest recorded outcome is not a
/// pass, across runs, and every lane never recorded; a lane for another
/// platform is left out (it would only be skipped again).
private func lanesToRetry(_ manifest: Manifest, historyPath: String?) throws(VerifyFailure) -> Retry {
  let names = manifest.lanes.filter { $0.platformSkipReason() == nil }.map(\.name)
  let found: (notPassing: [String], notVerified: [String])?
  do { found = try VerifyPipeline.lanesNotPassing(historyPath: historyPath, lanes: names) } catch { throw .history("\(error)") }
  guard let found else { return .nothing("duet verify --failed: no run recorded yet; nothing to run") }
  guard !found.notPassing.isEmpty || !found.notVerified.isEmpty else {
    return .nothing("duet verify --failed: every lane passed when it last ran; nothing to run")
  }
  var parts: [String] = []
  if !found.notPassing.isEmpty { parts.append("\(found.notPassing.count) not passing (\(FingerprintParts.listed(found.notPassing, limit: 5)))") }
  if !found.notVerified.isEmpty { parts.append("\(found.notVerified.count) not verified (\(FingerprintParts.listed(found.notVerified, limit: 5)))") }
  return .lanes(found.notPassing + found.notVerified, notice: "duet verify --failed: " + parts.joined(separator: ", "))
}

/// The plan of a verify: under a change (`--since`, `--watch`), a lane that
/// covers a module is affected by what that module depends on too
/// (`DerivedInputs.byModule`), the one rule for every kind of change.
func verifyPlan(_ request: VerifyRequest, manifest: Manifest, options: VerifyOptions) throws(UsageError) -> VerifyPlan {
  try VerifyPlan(root: request.root, manifest: manifest, builtins: .standard, options: options,
                 environment: request.environment,
                 moduleInputs: needsModuleInputs(manifest, options) ? DerivedInputs.byModule(root: request.root) : [:])
}

/// Whether the plan needs what modules depend on: only under a change, and only
/// when a lane `covers:` a module (the survey walks the tree, on every hook run).
private func needsModuleInputs(_ manifest: Manifest, _ options: VerifyOptions) -> Bool {
  options.changed != nil && manifest.lanes.contains { !$0.covers.isEmpty }
}

/// The plan and the pipeline to run it; says how many lanes a change selected.
private func preparePipeline(_ request: VerifyRequest, manifest: Manifest, options: VerifyOptions, historyPath: String?,
                             observer: VerifyObserver) throws(UsageError) -> (VerifyPlan, VerifyPipeline) {
  var plan = try verifyPlan(request, manifest: manifest, options: options)
  UpstreamVerdicts.apply(request.upstream, to: &plan).forEach(observer.warning)
  if let changed = options.changed {
    let unaffected = plan.affected.values.filter { $0 == .unaffected }.count
    observer.notice("duet verify: \(changed.files.count) changed file(s) since \(changed.description); \(plan.selected.count - unaffected) of \(plan.selected.count) lane(s) affected")
  }
  // The run travels through a remote cache that takes uploads (issue 55): the team's evidence.
  let scrub = HistoryStore.Scrub(root: request.root.path, home: request.environment[.home])
  let pipeline = VerifyPipeline(historyPath: historyPath, duetVersion: request.duetVersion, identifyDuet: request.builtinIdentity,
                                commandLine: request.commandLine, cache: try laneCache(request, historyPath: historyPath, observer: observer),
                                shareRun: { store, remote, content, id in
                                  SharedHistory.upload(runs: [id], of: store, remote: remote, contentStore: content, scrub: scrub,
                                                       duetVersion: request.duetVersion)
                                })
  return (plan, pipeline)
}

/// The pipeline's steps under `signals`, then the verdict and the record:
/// the lanes, the tree under `--strict`, the reports. Each step hands the next
/// its value; the response holds the decided verify with every warning.
private func run(_ pipeline: VerifyPipeline, _ plan: VerifyPlan, _ request: VerifyRequest, observer: VerifyObserver, signals: SignalGuard,
                 started: Date) -> (RunVerdict, VerifyPipeline.Decided?, (run: RunRow, steps: [StepRow])?) {
  do { try plan.prepareStateFolder() } catch {
    observer.warning("cannot make .duet/ under \(request.root.path): \(error); lane logs may be lost")
  }
  if request.reapOrphans { Subreaper.enable() }
  var lanes = runLanes(pipeline, plan, request, observer: observer, signals: signals)
  if request.reapOrphans {
    // duet's own question to git ended with the run loop, so nothing left is duet's own.
    // What escaped a lane's group (setsid) and was re-parented to duet ends with the run.
    let leftovers = Subreaper.killAdopted(laneGroups: lanes.groups?() ?? [])
    if !leftovers.isEmpty { observer.warning("stopped \(leftovers.count) process(es) that lanes left running outside their process groups") }
  }
  let after = lanes.trackedBefore.flatMap { _ in TrackedChanges.snapshot(root: request.root, environment: request.environment) }
  var verdict = VerifyPipeline.verdict(lanes.verdict, trackedBefore: lanes.trackedBefore, after: after)
  (verdict.reportErrors, verdict.machineErrors) = CIReports.save(verdict, request.reports, started: started, observer: observer)
  guard let (decided, ran) = lanes.steps else {
    // The guard ran no body: nothing was decided, run or recorded.
    lanes.delivery.waitUntilDelivered()
    return (verdict, nil, nil)
  }
  // The run's own warnings (a lane's file of tests that could not be written), then the record's.
  ran.warnings.forEach(observer.warning)
  let recorded = pipeline.record(verdict, decided: decided, ran: ran, store: &lanes.store)
  recorded.warnings.forEach(observer.warning)
  if let path = request.timingsPath, TimingsFile.save(TimingsFile.timeline(pipeline.timelineRows(verdict, decided: decided, ran: ran)), path: path, observer: observer) {
    verdict.timingsPath = path
  }
  lanes.delivery.waitUntilDelivered()
  return (verdict, decided.after(ran, recorded: recorded), recorded.rows)
}

/// What the steps under the signal guard left: the decided verify and its
/// run, the store open for the record, the tree before the run (`--strict`).
private struct GuardedSteps {
  var verdict: RunVerdict
  var steps: (decided: VerifyPipeline.Decided, ran: VerifyPipeline.Ran)?
  var store: HistoryStore?
  var trackedBefore: TrackedChanges?
  /// The process groups the run's poller started, asked once the run ended.
  var groups: (() -> Set<pid_t>)?
  let delivery: ObserverMailbox
}

/// Decides and runs the lanes under `signals`: a signal stops the run. (Any
/// child already started, a git query while the run is decided, is stopped by
/// the stop latch the signal trips.)
private func runLanes(_ pipeline: VerifyPipeline, _ plan: VerifyPlan, _ request: VerifyRequest, observer: VerifyObserver,
                      signals: SignalGuard) -> GuardedSteps {
  let interruption = pipeline.interruption
  // The observer hears the lanes on a queue of its own: a lane's end is noticed
  // on the output pump's thread, which also keeps every lane's deadline, and an
  // observer that blocks (a terminal nobody reads) must hold only itself, not
  // the run. The run is recorded before the queue is waited for. The calls are
  // held until the loop is about to block, so a lane's end is heard after its
  // dependents have started (issue 42: the wake cost each link of a deep DAG).
  var lanes = GuardedSteps(verdict: .empty,
                       delivery: ObserverMailbox(label: "duet.verify.observer", heldUntilFlush: true))
  let delivery = lanes.delivery
  let verdict = signals({ interruption.request() }) {
    let (decided, store) = pipeline.decide(plan)
    lanes.store = store
    decided.warnings.forEach(observer.warning)
    observer.started(plan.selected.count)
    if plan.options.strict && !interruption.isRequested { lanes.trackedBefore = TrackedChanges.snapshot(root: request.root, environment: request.environment) }
    let names = plan.manifest.lanes.map(\.name)
    let parts = request.runLoop?() ?? (SystemPoller(), SystemClock())
    lanes.groups = (parts.poller as? SystemPoller).map { poller in { poller.startedGroups } }
    let ran = pipeline.run(decided, poller: parts.poller, clock: parts.clock, onEvent: { event in delivery.post { observer.event(event) } },
                           onLine: { index, line in delivery.post { observer.line(names[index], line) } },
                           beforeWait: { delivery.flush() })
    lanes.steps = (decided, ran)
    delivery.post { observer.ended() }
    delivery.flush()
    return ran.verdict
  }
  lanes.verdict = verdict
  return lanes
}
