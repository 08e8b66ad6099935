import Foundation

/// One `duet verify` from plan to record: history weights, input fingerprints and
/// the cache before the run; the scheduler during it; the history row and log
/// retention after it. Every history problem is a warning, never a failure.
public final class VerifySession: @unchecked Sendable {
  /// Log folders of this many recent runs are kept under `.duet/logs`.
  public static let keptLogFolders = 50

  public private(set) var plan: VerifyPlan
  /// Nil when history is off (`DUET_HISTORY=off`): no weights, no cache, no record.
  public let historyPath: String?
  public let duetVersion: String
  public let commandLine: String
  public private(set) var warnings: [String] = []
  public private(set) var fingerprints: [Int: String] = [:]
  public private(set) var git: GitState?
  private var store: HistoryStore?
  private var scheduler: Scheduler?
  private let runUUID = UUID().uuidString.lowercased()
  private let started = Date()

  public init(plan: VerifyPlan, historyPath: String?, duetVersion: String, commandLine: String) {
    self.plan = plan
    self.historyPath = historyPath
    self.duetVersion = duetVersion
    self.commandLine = commandLine
  }

  /// Opens the store, weighs lanes by their last recorded durations, fingerprints
  /// them, and settles as `cached` each cacheable lane whose inputs are unchanged
  /// since it last passed.
  public func prepare() {
    if let historyPath {
      let opened = HistoryRecorder.open(path: historyPath)
      store = opened.store
      warnings += opened.warnings
    }
    let names = plan.manifest.lanes.map(\.name)
    var lastPassing: [String: String] = [:]
    if let store {
      do {
        let durations = try store.lastDurations(lanes: names)
        plan.weights = names.map { max(durations[$0] ?? 1, 0.001) }
        if !plan.options.noCache { lastPassing = try store.lastPassingFingerprints(lanes: names) }
      } catch {
        warnings.append("history: cannot read \(error); running without recorded durations")
      }
    }
    git = GitState.read(root: plan.root)
    let computed = InputFingerprint.compute(manifest: plan.manifest, root: plan.root, selected: plan.selected, git: git, duetVersion: duetVersion)
    fingerprints = computed.fingerprints
    guard !plan.options.noCache else { return }
    for index in computed.cacheable where plan.selected.contains(index) && plan.preset[index] == nil {
      let lane = plan.manifest.lanes[index]
      if let fingerprint = fingerprints[index], lastPassing[lane.name] == fingerprint {
        plan.preset[index] = LaneRecord(index: index, name: lane.name, outcome: .cached, reason: "inputs unchanged since it last passed")
      }
    }
  }

  /// Runs the plan; blocks until every lane has an outcome.
  public func run(runner: any StepRunner, onEvent: @escaping @Sendable (RunEvent) -> Void, onLine: @escaping @Sendable (Int, String) -> Void) -> RunResult {
    let plan = self.plan
    let scheduler = Scheduler(
      graph: plan.manifest.graph, lanes: plan.manifest.lanes, selected: plan.selected, weights: plan.weights,
      preset: plan.preset, options: .init(jobs: plan.options.jobs, failFast: plan.options.failFast), runner: runner)
    self.scheduler = scheduler
    return scheduler.run(
      makeRequest: { index, attempt in plan.request(index: index, attempt: attempt) { onLine(index, $0) } },
      onEvent: onEvent)
  }

  /// Ctrl-C: forwarded to the scheduler.
  public func interrupt() { scheduler?.interrupt() }

  /// Writes the run to history and trims old log folders; returns new warnings.
  @discardableResult
  public func record(_ result: RunResult) -> [String] {
    var added: [String] = []
    if let store {
      let host = ProcessInfo.processInfo.hostName
      let (run, steps) = RunRow.rows(for: result, plan: plan, id: runUUID, started: started.timeIntervalSince1970, command: commandLine,
                                     gitCommit: git?.commit, host: host, duetVersion: duetVersion, fingerprints: fingerprints)
      added += HistoryRecorder.record(run, steps: steps, in: store)
    }
    // Close the store now, not whenever the session is freed: a signal source's
    // handler can keep the session alive past exit(), and an unclosed WAL store
    // leaves its last run in -wal beside a main file that CI uploads alone.
    store = nil
    trimLogs()
    warnings += added
    return added
  }

  /// The lanes that failed or timed out in the newest recorded run (`--failed`).
  public static func lanesThatFailedLastTime(historyPath: String?) throws(HistoryError) -> [String]? {
    guard let historyPath, FileManager.default.fileExists(atPath: historyPath) else { return nil }
    let store = try HistoryStore(path: historyPath)
    guard let last = try store.recentRuns(limit: 1).first else { return nil }
    return try store.steps(ofRuns: [last.id]).filter { $0.laneOutcome == "fail" || $0.laneOutcome == "timeout" }.map(\.lane)
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
