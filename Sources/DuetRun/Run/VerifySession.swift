import Foundation
import DuetCache
import DuetModel
import DuetTestReports
import DuetProcess
import DuetSupport
import DuetHistory

/// One `duet verify` from plan to record: history weights, input fingerprints and
/// the cache before the run; the run loop during it; the history row and log
/// retention after it. Every history problem is a warning, never a failure.
///
/// Used from one thread; the only thing another thread (a signal handler) may
/// touch is `interruption`.
package final class VerifySession {
  /// Log folders of this many recent runs are kept under `.duet/logs`.
  static let keptLogFolders = LogLocation.keptLogFolders

  package private(set) var plan: VerifyPlan
  /// Nil when history is off (`DUET_HISTORY=off`): no weights and no record of
  /// the run; the cache is kept all the same.
  package let historyPath: String?
  let duetVersion: String
  /// What identifies this duet's own code in a built-in lane's fingerprint: a
  /// built-in checks with duet's code, so a rebuilt duet must not reuse its
  /// passes. Worked out on first use, and used only when the manifest has a
  /// built-in lane: it hashes duet's executable (tens of megabytes) when its
  /// memo is missing, as in every fresh CI checkout.
  private(set) lazy var builtinIdentity: String = identifyDuet?() ?? duetVersion
  private let identifyDuet: (() -> String)?
  let commandLine: String
  package private(set) var warnings: [String] = []
  package private(set) var fingerprints = InputFingerprint.Result(fingerprints: [:], parts: [:], cacheable: [])
  /// For each lane not settled before the run: `cached`, or why it runs.
  package private(set) var decisions: [Int: CacheCheck.Decision] = [:]
  /// Under `--dry-run`, for each lane that runs: the pass another checkout or
  /// machine recorded for this commit that it misses, and why (`CacheMiss`).
  package private(set) var misses: [Int: CacheMiss] = [:]
  /// The HEAD commit the history row names; nil outside git. When the
  /// fingerprints did not ask git already, it is asked while the lanes run, as
  /// a child of the run loop beside them: only the record needs it, so the
  /// first lane need not wait for it.
  private(set) var gitCommit: String?
  /// Whether `run` asks git for the commit.
  private var commitWanted = false
  /// Each lane's newest recorded verdict, as the cache was decided from it.
  private var history: [String: CacheCheck.LastVerdict] = [:]
  /// The inputs that moved while a lane passed, so that pass is not kept.
  private var movedInputs: [Int: [String]] = [:]
  /// Ctrl-C, from any thread, before or during the run: a request made before
  /// the run loop exists is heard by the loop the moment it starts listening.
  package let interruption = StopRequest()
  private var store: HistoryStore?
  /// The content-addressed cache, on whatever `DUET_HISTORY` says; nil only
  /// when the caller made none (`--no-cache`, a test).
  private let cache: LaneCache?
  /// Each fingerprinted lane's action key, under which its pass is stored.
  private var actionKeys: [Int: String] = [:]
  private let runUUID = UUID().uuidString.lowercased()
  private let started = Date()
  /// The run and steps `record` wrote to the store; nil until it did (what a CI job's verdict seal holds).
  package private(set) var recorded: (run: RunRow, steps: [StepRow])?
  /// How a recorded run is put on a remote cache that takes uploads (the
  /// store, the remote, the content store, the run's id; warnings back): the
  /// app's `SharedHistory`; nil puts none.
  package var shareRun: ((HistoryStore, RemoteCache, ContentStore, String) -> [String])?
  /// `lanes/quarantine.yaml` as this run applies it; nil when the file is absent or unreadable.
  private(set) var quarantine: QuarantineRule?

  package init(plan: VerifyPlan, historyPath: String?, duetVersion: String, builtinIdentity: (() -> String)? = nil, commandLine: String,
              cache: LaneCache? = nil) {
    self.plan = plan
    self.cache = cache
    // Ctrl-C during a lookup or a restore ends the request at once.
    if let remote = cache?.remote { interruption.listen { remote.cancel() } }
    self.historyPath = historyPath
    self.duetVersion = duetVersion
    self.identifyDuet = builtinIdentity
    self.commandLine = commandLine
  }

  /// Reads the quarantine; a file that cannot be read quarantines nothing (its
  /// failures block) and says so, then each problem as a warning of its own,
  /// one line naming its `file:line:column` (a warning is one printed line: a
  /// line break in it would be shown as `\n`). One warning per entry past its `until` day.
  private func loadQuarantine(lanes: Set<String>) {
    do {
      let file = try QuarantineFile.load(root: plan.root, lanes: lanes)
      guard !file.entries.isEmpty else { return }
      let rule = QuarantineRule(entries: file.entries, today: QuarantineDate(started))
      quarantine = rule
      warnings += rule.warnings
    } catch {
      warnings.append("quarantine: cannot read \(QuarantineFile.defaultPath), so nothing is quarantined and no failure is excused; "
                      + "\(error.diagnostics.count == 1 ? "its error" : "its \(error.diagnostics.count) errors"):")
      warnings += error.diagnostics.map(\.description)
    }
  }

  /// Opens the store, weighs lanes by their last recorded durations, fingerprints
  /// them, and settles as `cached` each lane the cache serves. With `recording`
  /// false (`--dry-run`) an existing store is only read and none is made.
  package func prepare(recording: Bool = true) {
    let names = plan.manifest.lanes.map(\.name)
    loadQuarantine(lanes: Set(names))
    var history: [String: CacheCheck.LastVerdict] = [:]
    if let historyPath {
      if recording {
        let opened = HistoryRecorder.open(path: historyPath)
        store = opened.store
        warnings += opened.warnings
      } else if FileManager.default.fileExists(atPath: historyPath) {
        do {
          store = try HistoryStore(path: historyPath, readOnly: true)
        } catch {
          warnings.append("history: cannot read \(error); every lane counts as never run")
        }
      }
    }
    if let store {
      do {
        let durations = try store.lastDurations(lanes: names)
        plan.weights = names.map { max(durations[$0] ?? 1, 0.001) }
        if !plan.options.noCache { history = try store.lastVerdicts(lanes: names) }
      } catch {
        warnings.append("history: cannot read \(error); running without recorded durations")
      }
    }
    if !recording { store = nil }
    let git = GitStateOnce(root: plan.root, environment: plan.environment)
    let fingerprintTree = { [unowned self] in
      self.fingerprints = InputFingerprint.compute(
        manifest: self.plan.manifest, builtins: self.plan.builtins, root: self.plan.root, selected: self.plan.selected,
        git: git, duetVersion: self.plan.manifest.lanes.contains(where: \.isBuiltin) ? self.builtinIdentity : self.duetVersion,
        changedFiles: self.plan.options.changed?.files, quarantined: self.quarantinedTests,
        defaultTimeout: self.plan.options.defaultTimeout, environment: self.plan.environment,
        programMemo: self.plan.root.appendingPathComponent(".duet/\(InputFingerprint.programMemoName)"), rememberPrograms: recording)
      self.actionKeys = [:]
      for index in self.fingerprints.cacheable where self.plan.selected.contains(index) {
        if let fingerprint = self.fingerprints.fingerprints[index] {
          self.actionKeys[index] = LaneCache.actionKey(fingerprint: fingerprint, outputs: self.plan.manifest.lanes[index].outputs)
        }
      }
    }
    fingerprintTree()
    self.history = history
    let restored = decideWithCache(restoring: recording, fingerprintAgain: fingerprintTree)
    // Asked already (even without an answer: no git, or stopped by Ctrl-C), git is not asked again.
    gitCommit = git.asked ? git.value?.commit : nil
    commitWanted = !git.asked && recording
    if !recording { misses = missedPasses() }
    for (index, decision) in decisions where decision == .cached {
      var record = LaneRecord(index: index, name: plan.manifest.lanes[index].name, outcome: .cached, reason: servedReason(index))
      record.restoredFiles = restored[index]?.files ?? 0
      record.restoredLog = restored[index]?.log
      plan.preset[index] = record
    }
  }

  /// For each lane that runs, the nearest pass another checkout or machine
  /// recorded for HEAD's commit, when its fingerprint differs (a pulled run,
  /// a merged store, another clone sharing this store).
  private func missedPasses() -> [Int: CacheMiss] {
    guard let historyPath, FileManager.default.fileExists(atPath: historyPath),
          let commit = ProcessOutput.git(["rev-parse", "--verify", "-q", "HEAD"], in: plan.root, environment: plan.environment),
          let reader = try? HistoryStore(path: historyPath, readOnly: true) else { return [:] }
    var found: [Int: CacheMiss] = [:]
    for (index, decision) in decisions where decision != .cached {
      guard let parts = fingerprints.parts[index],
            let runs = try? reader.otherCheckoutRuns(lane: plan.manifest.lanes[index].name, commit: commit, root: plan.root.path) else { continue }
      guard var miss = CacheMiss.nearest(parts, among: runs) else { continue }
      miss.isLastVerdict = miss.against.fingerprint == history[plan.manifest.lanes[index].name]?.fingerprint
      found[index] = miss
    }
    return found
  }

  /// The cache decisions, with the cache's entries: each lane served gets its
  /// outputs back (`restoring`; a `--dry-run` only compares), and a lane whose
  /// outputs cannot come back runs, and with it every lane that needs it.
  ///
  /// Restored files may be other lanes' inputs (a need's outputs that a
  /// consumer declares), read before they were there: after a restore that
  /// wrote files, the tree is fingerprinted again (`fingerprintAgain`) and the
  /// cache decided again, a few rounds at most.
  private func decideWithCache(restoring: Bool, fingerprintAgain: () -> Void) -> [Int: (files: Int, log: String?)] {
    let run = CacheCheck.RunConditions(strict: plan.options.strict, partial: plan.options.changed != nil,
                                       refusesFlaky: plan.options.refusesFlaky)
    var entryConditions: [Int: PassConditions] = [:]
    var lookedUp: [Int: String] = [:]
    // Each key is looked up once: a later round asks only for keys that changed.
    func lookUp() {
      guard let cache, !plan.options.noCache else { return }
      let wanted = actionKeys.filter { plan.preset[$0.key] == nil && lookedUp[$0.key] != $0.value }
      lookedUp.merge(wanted) { $1 }
      cache.lookUp(wanted, lanes: plan.manifest.lanes)
      entryConditions = cache.entries.mapValues { PassConditions(strict: $0.entry.strict, partial: $0.entry.partial) }
    }
    lookUp()
    var forced: [Int: String] = [:]
    var restored: [Int: (files: Int, log: String?)] = [:]
    var rounds = 0
    while true {
      decisions = CacheCheck.decide(manifest: plan.manifest, selected: plan.selected, settled: plan.preset.mapValues(\.outcome),
                                    fingerprints: fingerprints, history: history, entries: entryConditions, forced: forced,
                                    noCache: plan.options.noCache, run: run)
      guard let cache else { break }
      let pending = decisions.filter { $0.value == .cached && restored[$0.key] == nil }.keys.sorted()
      guard !pending.isEmpty else { break }
      var refused = false
      var wrote = false
      if restoring {
        let logs = Dictionary(uniqueKeysWithValues: pending.map { ($0, plan.request(index: $0, attempt: 1).logPath) })
        for (index, outcome) in cache.restore(pending, lanes: plan.manifest.lanes, root: plan.root, logPaths: logs) {
          switch outcome.result {
          case .restored(let files):
            restored[index] = (files, outcome.log)
            wrote = wrote || files > 0
          case .cannot(let why):
            forced[index] = "its outputs cannot be restored: \(why)"
            refused = true
          }
        }
      } else {
        for (index, problem) in cache.wouldRestore(pending, lanes: plan.manifest.lanes, root: plan.root) {
          if let problem {
            forced[index] = "its outputs cannot be restored: \(problem)"
            refused = true
          } else {
            restored[index] = (0, nil)
          }
        }
      }
      if wrote && rounds < 3 {
        rounds += 1
        fingerprintAgain()
        lookUp()
        continue
      }
      if !refused { break }
    }
    warnings += cache?.takeWarnings() ?? []
    return restored
  }

  /// Why a cached lane is served: its own history, or an entry in a cache.
  private func servedReason(_ index: Int) -> String {
    let lane = plan.manifest.lanes[index]
    if let last = history[lane.name], last.passed, last.fingerprint == fingerprints.fingerprints[index] {
      // A pass that came only on a retry is said so (issue 55, item 4): served silently, it hid its failure.
      return last.retried?.words ?? "inputs unchanged since it last passed"
    }
    switch cache?.entries[index]?.source {
    case .remote?: return "a pass with these inputs is in the remote cache"
    default: return "a pass with these inputs is in the cache"
    }
  }

  /// The plan of the run as `LaneSchedule` sees it: settled lanes, retries, pools, jobs.
  package var schedule: LaneSchedule {
    let manifest = plan.manifest
    return LaneSchedule(.init(
      graph: manifest.graph, selected: plan.selected, settled: plan.preset,
      retries: manifest.lanes.map(\.retries), pools: manifest.lanes.map(\.pool), poolDepths: manifest.pools,
      weights: plan.weights, jobs: plan.options.jobs, failFast: plan.options.failFast))
  }

  /// Runs the plan on this thread's run loop; returns when every lane has an
  /// outcome. Tests hand it a scripted poller and clock. `beforeWait` runs
  /// each time the loop is about to block (see `LaneLoop.run`).
  package func run(poller: any ChildPoller = SystemPoller(), clock: any RunClock = SystemClock(),
                  onEvent: @escaping (RunEvent) -> Void, onLine: @escaping @Sendable (Int, String) -> Void,
                  beforeWait: (() -> Void)? = nil) -> RunResult {
    let plan = self.plan
    let before = fingerprints.cacheable.reduce(into: [Int: [FingerprintParts.File]]()) { $0[$1] = fingerprints.parts[$1]?.files }
    let root = plan.root, cache = self.cache
    let recheck = InputRecheck(root: plan.root, builtins: plan.builtins, before: before)
    let loop = LaneLoop(plan: schedule, lanes: plan.manifest.lanes, builtins: plan.builtins, poller: poller, clock: clock,
                        recheck: recheck,
                        outputs: { index, lane in
                          cache?.capture(index, lane: lane, root: root)
                            ?? OutputCheck(missing: OutputFiles.capture(lane.outputs, root: root, store: nil).missing)
                        },
                        reports: ReportReading(snapshot: { TestReportFiles.snapshot($0.reports, root: root) },
                                               read: { lane, since, before in
                                                 // Within the lane's timeout (as `VerifyPlan` sets the request's): a slow read never outlasts it.
                                                 let deadline = since + (lane.timeout ?? plan.options.defaultTimeout)
                                                 return TestReportFiles.read(lane.reports, root: root, since: since, unchanged: before, deadline: deadline)
                                               }),
                        quarantine: quarantine)
    if commitWanted {
      commitWanted = false
      loop.alongside(ProcessOutput.gitSpec(["rev-parse", "HEAD"], in: plan.root, environment: plan.environment)) { [unowned self] output in
        self.gitCommit = output.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
      }
    }
    let interrupter = loop.interrupter
    interruption.listen { interrupter.interrupt() }
    let quarantined = writeQuarantinedTests()
    let failedTests = writeFailedTests()
    var result = loop.run(makeRequest: { index, attempt in
                            plan.request(index: index, attempt: attempt, quarantinedTests: quarantined[index],
                                         failedTests: failedTests[index]) { onLine(index, $0) }
                          },
                          startWork: { [unowned self] index, attempt in
                            attempt == 1 ? self.fingerprintAgain(index, recheck: recheck) : nil
                          },
                          onEvent: onEvent, beforeWait: beforeWait)
    movedInputs = loop.moved
    plan.sandboxScratch?.removeAll()
    // `--failed-tests`: a pass of the failed cases alone says so (`pass … failed tests only: 1 of 3`).
    for position in result.records.indices where result.records[position].outcome == .pass && !result.records[position].attempts.isEmpty {
      guard let only = plan.options.failedTests[result.records[position].name] else { continue }
      result.records[position].attempts[result.records[position].attempts.count - 1].note = only.words
    }
    return result
  }

  /// `--failed-tests`: writes, for each selected lane that runs only its failed
  /// cases, the file `DUET_FAILED_TESTS` names (one `classname.name` a line),
  /// as `writeQuarantinedTests` does; each lane's absolute path.
  private func writeFailedTests() -> [Int: String] {
    var paths: [Int: String] = [:]
    for index in plan.selected.sorted() where plan.preset[index] == nil {
      let lane = plan.manifest.lanes[index]
      guard let only = plan.options.failedTests[lane.name] else { continue }
      let path = plan.failedTestsPath(lane: lane.name)
      let file = plan.root.appendingPathComponent(path)
      do {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try AtomicFile.write(Data(only.tests.map { $0 + "\n" }.joined().utf8), to: path, in: plan.root)
        paths[index] = file.path
      } catch {
        warnings.append("--failed-tests: cannot write \(ControlText.shown(path)) for lane '\(ControlText.shown(lane.name))': \(error)")
      }
    }
    return paths
  }

  /// Each lane's quarantined tests in date, one pattern each, as the lane's
  /// `DUET_QUARANTINED_TESTS` file holds them: part of the lane's key.
  private var quarantinedTests: [String: [String]] {
    var byLane: [String: [String]] = [:]
    for lane in plan.manifest.lanes where !lane.reports.isEmpty {
      let tests = (quarantine?.active(lane: lane.name) ?? []).compactMap(\.test).filter { !$0.contains(where: \.isNewline) }
      if !tests.isEmpty { byLane[lane.name] = tests }
    }
    return byLane
  }

  /// Writes, for each selected lane with `reports:`, the file that names its
  /// quarantined tests (one `classname.name` pattern a line; empty when it has
  /// none), so a lane can hand them to its runner as exclusions and its exit
  /// status is the verdict again. Each lane's absolute path; a lane whose file
  /// could not be written gets none, and a warning says why.
  private func writeQuarantinedTests() -> [Int: String] {
    var paths: [Int: String] = [:]
    // One a line: a pattern holding a line break cannot be written so, and names no runner's test.
    let tests = quarantinedTests
    for index in plan.selected.sorted() where !plan.manifest.lanes[index].reports.isEmpty && plan.preset[index] == nil {
      let lane = plan.manifest.lanes[index]
      let patterns = tests[lane.name] ?? []
      let path = plan.quarantinedTestsPath(lane: lane.name)
      let file = plan.root.appendingPathComponent(path)
      do {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Through the tree-root guard: no link on the way out of `.duet/logs`.
        _ = try AtomicFile.write(Data(patterns.map { $0 + "\n" }.joined().utf8), to: path, in: plan.root)
        paths[index] = file.path
      } catch {
        warnings.append("quarantine: cannot write \(ControlText.shown(path)) for lane '\(ControlText.shown(lane.name))': \(error)")
      }
    }
    return paths
  }

  /// A lane whose need ran in this run gets its fingerprint taken again as it
  /// starts: its inputs may be that need's outputs (an XCFramework the app
  /// links), written after `prepare` looked. Its needs' fingerprints are read
  /// again too, so the pass it records is under the key the next run computes.
  /// The walk (hashing what may be a big framework) runs on a worker; what it
  /// found is kept on the loop's thread as the lane starts.
  private func fingerprintAgain(_ index: Int, recheck: InputRecheck) -> StartWork? {
    let graph = plan.manifest.graph, lane = plan.manifest.lanes[index]
    guard fingerprints.cacheable.contains(index), fingerprints.parts[index] != nil,
          graph.needs[index].contains(where: { plan.preset[$0] == nil }) else { return nil }
    let root = plan.root, builtins = plan.builtins
    return StartWork {
      let files = InputFingerprint.inputFiles(of: lane, root: root, builtins: builtins)
      return { [unowned self] in
        guard files.problems.isEmpty, !files.files.isEmpty, var parts = self.fingerprints.parts[index] else { return }
        parts.files = files.files
        for need in graph.needs[index] {
          if let fingerprint = self.fingerprints.fingerprints[need] { parts.needs[graph.names[need]] = fingerprint }
        }
        self.fingerprints.parts[index] = parts
        self.fingerprints.fingerprints[index] = parts.fingerprint
        self.actionKeys[index] = LaneCache.actionKey(fingerprint: parts.fingerprint, outputs: lane.outputs)
        recheck.before[index] = files.files
      }
    }
  }

  /// The finished run laid out in time (`--timings`), from the rows it records.
  package func timeline(_ outcome: VerifyOutcome) -> RunTimeline {
    let (run, steps) = RunRow.rows(for: outcome, plan: plan, id: runUUID, started: started.timeIntervalSince1970, command: commandLine,
                                   gitCommit: nil, host: "", duetVersion: duetVersion, fingerprints: fingerprints.fingerprints)
    let needs = Dictionary(plan.manifest.lanes.map { ($0.name, $0.needs) }, uniquingKeysWith: { a, _ in a })
    return RunTimeline(run: run, steps: steps, needs: needs)
  }

  /// Writes the run, with its one verdict, to history and trims old log folders;
  /// returns new warnings.
  @discardableResult
  package func record(_ outcome: VerifyOutcome) -> [String] {
    var added: [String] = []
    if let store {
      let host = ProcessInfo.processInfo.hostName
      // A run whose lanes changed tracked files (--strict) leaves no fingerprint:
      // one of its passes wrote the tree, so none may be served from the cache.
      let reusable = outcome.changedTrackedFiles.isEmpty
      var (run, steps) = RunRow.rows(for: outcome, plan: plan, id: runUUID, started: started.timeIntervalSince1970, command: commandLine,
                                     gitCommit: gitCommit, host: host, duetVersion: duetVersion,
                                     fingerprints: reusable ? fingerprints.fingerprints : [:], judged: judged(outcome))
      run.origin = RecordOrigin.of(environment: plan.environment, host: host)
      var parts: [String: FingerprintParts] = [:]
      for record in outcome.run.records where reusable && [.pass, .flaky, .fail, .timeout].contains(record.outcome) && !record.attempts.isEmpty {
        if let part = fingerprints.parts[record.index] { parts[record.name] = part }
      }
      let failed = HistoryRecorder.record(run, steps: steps, parts: parts, tests: TestCaseRow.rows(for: outcome, id: runUUID), in: store)
      if failed.isEmpty { recorded = (run, steps) }
      added += failed
    }
    added += TestCaseRow.warnings(for: outcome)
    if let cache {
      saveEntries(outcome, cache: cache)
      added += shareRecordedRun(cache: cache)
      added += cache.takeWarnings()
    }
    // Close the store now, not whenever the session is freed: a signal source's
    // handler can keep the session alive past exit(), and an unclosed WAL store
    // leaves its last run in -wal beside a main file that CI uploads alone.
    store = nil
    trimLogs()
    warnings += added
    return added
  }

  /// Uploads the run just recorded to the remote cache, under its commit, when
  /// the remote takes uploads and the caller said how (`shareRun`): the team's evidence travels.
  private func shareRecordedRun(cache: LaneCache) -> [String] {
    guard let store, let remote = cache.remote, remote.upload, let recorded, recorded.run.gitCommit != nil, let shareRun else { return [] }
    return shareRun(store, remote, cache.store, recorded.run.id)
  }

  /// Writes a cache entry for each lane that passed in this run and may serve
  /// another: fingerprinted, its inputs unmoved, in a run that changed no
  /// tracked file (under `--strict`).
  private func saveEntries(_ outcome: VerifyOutcome, cache: LaneCache) {
    guard outcome.changedTrackedFiles.isEmpty else { return }
    let judged = self.judged(outcome)
    var passes: [Int: (key: String, judged: PassConditions, logPath: String?)] = [:]
    for record in outcome.run.records where (record.outcome == .pass || record.outcome == .flaky) && !record.attempts.isEmpty
      && record.last?.excused != true && plan.options.failedTests[record.name] == nil {
      guard let key = actionKeys[record.index], let conditions = judged[record.index], conditions.moved.isEmpty else { continue }
      passes[record.index] = (key, conditions, record.last?.logPath)
    }
    cache.save(passes, lanes: plan.manifest.lanes, root: plan.root, duetVersion: duetVersion)
  }

  /// The conditions each recorded lane was judged under: those of this run for
  /// a lane that ran, those of the pass it was served from for a cached one.
  private func judged(_ outcome: VerifyOutcome) -> [Int: PassConditions] {
    let moved = movedInputs
    var judged: [Int: PassConditions] = [:]
    for record in outcome.run.records {
      if record.outcome == .cached {
        let served = cache?.entries[record.index].map { PassConditions(strict: $0.entry.strict, partial: $0.entry.partial) }
        let own = history[record.name].flatMap { $0.passed && $0.fingerprint == fingerprints.fingerprints[record.index] ? $0.judged : nil }
        judged[record.index] = own ?? served
      } else if !record.attempts.isEmpty {
        var conditions = PassConditions(strict: plan.options.strict && outcome.changedTrackedFiles.isEmpty,
                                        partial: plan.options.changed != nil, moved: moved[record.index] ?? [])
        conditions.failedTestsOnly = plan.options.failedTests[record.name] != nil
        judged[record.index] = conditions
      }
    }
    return judged
  }

  /// What `--failed` runs again: every lane whose newest recorded outcome is
  /// not a pass (failed, timed out, skipped, cancelled, interrupted), looked up
  /// across runs, so a partial or interrupted run hides nothing; and every lane
  /// the store has never recorded. Nil when no run is recorded at all.
  package static func lanesNotPassing(historyPath: String?, lanes: [String]) throws(HistoryError) -> (notPassing: [String], notVerified: [String])? {
    guard let historyPath, FileManager.default.fileExists(atPath: historyPath) else { return nil }
    let store = try HistoryStore(path: historyPath, readOnly: true)
    guard try !store.recentRuns(limit: 1).isEmpty else { return nil }
    let latest = try store.latestOutcomes(lanes: lanes)
    let notPassing = lanes.filter { latest[$0].map { !$0.letsDependentsRun } ?? false }
    return (notPassing, lanes.filter { latest[$0] == nil })
  }

  private func trimLogs() {
    let folder = plan.root.appendingPathComponent(".duet/logs")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    let sorted = names.filter { !$0.hasPrefix(".") }.sorted()
    for name in sorted.dropLast(VerifySession.keptLogFolders) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }
}
