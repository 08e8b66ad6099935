import Foundation
import DuetCache
import DuetModel
import DuetSupport
import DuetHistory

/// The record step, the last edge: what the verdict leaves behind. What it
/// writes is worked out by pure functions (`judged`, `passes`, `keptParts`).
extension VerifyPipeline {
  /// Writes the run, with its one verdict, to history (every problem a
  /// warning, never a failure), each pass that may serve another to the cache
  /// (and the run to a remote that takes uploads), and trims old log folders.
  /// Closes the store (`store` is nil after), not whenever its holder is
  /// freed: a signal source's handler can keep that alive past exit(), and an
  /// unclosed WAL store leaves its last run in -wal beside a main file that CI uploads alone.
  package func record(_ verdict: RunVerdict, decided: Decided, ran: Ran, store: inout HistoryStore?) -> Recorded {
    var recorded = Recorded()
    let judged = Self.judged(verdict, decided: decided, ran: ran)
    if let store {
      let host = ProcessInfo.processInfo.hostName
      // A run whose lanes changed tracked files (--strict) leaves no fingerprint:
      // one of its passes wrote the tree, so none may be served from the cache.
      let reusable = verdict.changedTrackedFiles.isEmpty
      var (run, steps) = RunRow.rows(for: verdict, plan: decided.plan, id: runUUID, started: started.timeIntervalSince1970, command: commandLine,
                                     gitCommit: ran.gitCommit, host: host, duetVersion: duetVersion,
                                     fingerprints: reusable ? ran.keys.fingerprints.fingerprints : [:], judged: judged)
      run.origin = RecordOrigin.of(environment: decided.plan.environment, host: host)
      let failed = HistoryRecorder.record(run, steps: steps, parts: Self.keptParts(verdict, fingerprints: ran.keys.fingerprints),
                                          tests: TestCaseRow.rows(for: verdict, id: runUUID), in: store)
      if failed.isEmpty { recorded.rows = (run, steps) }
      recorded.warnings += failed
    }
    recorded.warnings += TestCaseRow.warnings(for: verdict)
    if let cache {
      let passes = Self.passes(verdict, judged: judged, actionKeys: ran.keys.actionKeys, options: decided.plan.options)
      if verdict.changedTrackedFiles.isEmpty { cache.save(passes, lanes: decided.plan.manifest.lanes, root: decided.plan.root, duetVersion: duetVersion) }
      if let store, let remote = cache.remote, remote.upload, let rows = recorded.rows, rows.run.gitCommit != nil, let shareRun {
        // The team's evidence travels.
        recorded.warnings += shareRun(store, remote, cache.store, rows.run.id)
      }
      recorded.warnings += cache.takeWarnings()
    }
    store = nil
    Self.trimLogs(root: decided.plan.root)
    return recorded
  }

  /// The rows the finished run records and each lane's needs: what its
  /// timeline (`--timings`, `RunTimeline` in DuetPages) is laid out from. Pure.
  package func timelineRows(_ verdict: RunVerdict, decided: Decided, ran: Ran) -> (run: RunRow, steps: [StepRow], needs: [String: [String]]) {
    let (run, steps) = RunRow.rows(for: verdict, plan: decided.plan, id: runUUID, started: started.timeIntervalSince1970, command: commandLine,
                                   gitCommit: nil, host: "", duetVersion: duetVersion, fingerprints: ran.keys.fingerprints.fingerprints)
    let needs = Dictionary(decided.plan.manifest.lanes.map { ($0.name, $0.needs) }, uniquingKeysWith: { a, _ in a })
    return (run, steps, needs)
  }

  /// The conditions each recorded lane was judged under (pure): those of this
  /// run for a lane that ran, those of the pass it was served from for a cached one.
  static func judged(_ verdict: RunVerdict, decided: Decided, ran: Ran) -> [Int: PassConditions] {
    let options = decided.plan.options
    var judged: [Int: PassConditions] = [:]
    for record in verdict.lanes {
      if record.outcome == .cached {
        let served = decided.entries[record.index].map { PassConditions(strict: $0.entry.strict, partial: $0.entry.partial) }
        let own = decided.readings.history[record.name].flatMap {
          $0.passed && $0.fingerprint == ran.keys.fingerprints.fingerprints[record.index] ? $0.judged : nil
        }
        judged[record.index] = own ?? served
      } else if !record.attempts.isEmpty {
        var conditions = PassConditions(strict: options.strict && verdict.changedTrackedFiles.isEmpty,
                                        partial: options.changed != nil, moved: ran.moved[record.index] ?? [])
        conditions.failedTestsOnly = options.failedTests[record.name] != nil
        judged[record.index] = conditions
      }
    }
    return judged
  }

  /// The passes of this run that may serve another (pure): fingerprinted, not
  /// excused by the quarantine, not of failed tests alone, their inputs unmoved.
  static func passes(_ verdict: RunVerdict, judged: [Int: PassConditions], actionKeys: [Int: String],
                     options: VerifyOptions) -> [Int: (key: String, judged: PassConditions, logPath: String?)] {
    var passes: [Int: (key: String, judged: PassConditions, logPath: String?)] = [:]
    for record in verdict.lanes where (record.outcome == .pass || record.outcome == .flaky) && !record.attempts.isEmpty
      && record.last?.excused != true && options.failedTests[record.name] == nil {
      guard let key = actionKeys[record.index], let conditions = judged[record.index], conditions.moved.isEmpty else { continue }
      passes[record.index] = (key, conditions, record.last?.logPath)
    }
    return passes
  }

  /// What each lane's fingerprint was made from, kept with the row of a lane
  /// that ran to a verdict, so a later run can say what changed (pure); none
  /// for a run that changed tracked files.
  static func keptParts(_ verdict: RunVerdict, fingerprints: InputFingerprint.Result) -> [String: FingerprintParts] {
    guard verdict.changedTrackedFiles.isEmpty else { return [:] }
    var parts: [String: FingerprintParts] = [:]
    for record in verdict.lanes where [.pass, .flaky, .fail, .timeout].contains(record.outcome) && !record.attempts.isEmpty {
      if let part = fingerprints.parts[record.index] { parts[record.name] = part }
    }
    return parts
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

  /// Keeps the log folders of the last `LogLocation.keptLogFolders` runs.
  static func trimLogs(root: URL) {
    let folder = root.appendingPathComponent(".duet/logs")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    let sorted = names.filter { !$0.hasPrefix(".") }.sorted()
    for name in sorted.dropLast(LogLocation.keptLogFolders) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }
}
