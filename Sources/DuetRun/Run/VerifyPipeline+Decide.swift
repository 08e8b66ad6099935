import Foundation
import DuetCache
import DuetModel
import DuetProcess
import DuetSupport
import DuetHistory
import DuetTestReports

/// The steps before the run: read, plan, cache decisions, and the restore edge between rounds.
extension VerifyPipeline {
  /// Reads the history and the quarantine, keys every lane, and decides what
  /// the cache serves, restoring each served lane's outputs into the tree.
  /// With `recording` false (`--dry-run`) nothing is written: an existing store
  /// is only read, none is made, and a restore is only tried on paper; the
  /// passes other checkouts recorded that this one misses are found instead.
  /// The store comes back open when `recording`, for the record step.
  package func decide(_ plan: VerifyPlan, recording: Bool = true) -> (decided: Decided, store: HistoryStore?) {
    let (readings, store) = read(plan, recording: recording)
    var plan = plan
    plan.weights = Self.weights(plan.manifest.lanes.map(\.name), durations: readings.durations)
    let git = GitStateOnce(root: plan.root, environment: plan.environment)
    let identity = plan.manifest.lanes.contains(where: \.isBuiltin) ? (identifyDuet?() ?? duetVersion) : duetVersion
    let keyTree = { [plan] in self.fingerprint(plan, git: git, identity: identity, quarantine: readings.quarantine, recording: recording) }
    let (rounds, keys, entries) = decideWithCache(plan, history: readings.history, keys: keyTree(), restoring: recording, keyAgain: keyTree)
    var decided = Decided(plan: plan, keys: keys, decisions: rounds.decisions, warnings: readings.warnings + (cache?.takeWarnings() ?? []),
                          readings: readings, entries: entries)
    // Asked already (even without an answer: no git, or stopped by Ctrl-C), git is not asked again.
    // Only the history's row names the commit: with the history off, git is not asked for it.
    decided.gitCommit = git.asked ? git.value?.commit : nil
    decided.commitWanted = !git.asked && recording && store != nil
    if !recording { decided.misses = missedPasses(decided) }
    decided.plan.preset.merge(rounds.served(plan.manifest.lanes, fingerprints: keys.fingerprints, history: readings.history,
                                            entries: entries)) { $1 }
    return (decided, store)
  }

  /// The read step: the quarantine, then each lane's last duration and verdict
  /// from the store, which it opens for the record (made when missing) only when `recording`.
  func read(_ plan: VerifyPlan, recording: Bool) -> (Readings, HistoryStore?) {
    let names = plan.manifest.lanes.map(\.name)
    var readings = Readings()
    (readings.quarantine, readings.warnings) = Self.quarantine(root: plan.root, lanes: Set(names), today: QuarantineDate(started))
    guard let historyPath else { return (readings, nil) }
    var store: HistoryStore?
    if recording {
      let opened = HistoryRecorder.open(path: historyPath)
      store = opened.store
      readings.warnings += opened.warnings
    } else if FileManager.default.fileExists(atPath: historyPath) {
      do {
        store = try HistoryStore(path: historyPath, readOnly: true)
      } catch {
        readings.warnings.append("history: cannot read \(error); every lane counts as never run")
      }
    }
    if let store {
      do {
        readings.durations = try store.lastDurations(lanes: names)
        if !plan.options.noCache { readings.history = try store.lastVerdicts(lanes: names) }
      } catch {
        readings.warnings.append("history: cannot read \(error); running without recorded durations")
      }
    }
    return (readings, recording ? store : nil)
  }

  /// Reads the quarantine; a file that cannot be read quarantines nothing (its
  /// failures block) and says so, then each problem as a warning of its own,
  /// one line naming its `file:line:column` (a warning is one printed line: a
  /// line break in it would be shown as `\n`). One warning per entry past its `until` day.
  static func quarantine(root: URL, lanes: Set<String>, today: QuarantineDate) -> (QuarantineRule?, [String]) {
    do {
      let file = try QuarantineFile.load(root: root, lanes: lanes)
      guard !file.entries.isEmpty else { return (nil, []) }
      let rule = QuarantineRule(entries: file.entries, today: today)
      return (rule, rule.warnings)
    } catch {
      return (nil, ["quarantine: cannot read \(QuarantineFile.defaultPath), so nothing is quarantined and no failure is excused; "
                    + "\(error.diagnostics.count == 1 ? "its error" : "its \(error.diagnostics.count) errors"):"]
                   + error.diagnostics.map(\.description))
    }
  }

  /// The plan's weights (pure): each lane's last recorded duration, 1 second for one never recorded.
  static func weights(_ names: [String], durations: [String: Double]) -> [Double] {
    names.map { max(durations[$0] ?? 1, 0.001) }
  }

  /// The action key of each selected lane whose fingerprint covers its inputs (pure).
  static func actionKeys(_ found: InputFingerprint.Result, selected: Set<Int>, lanes: [Lane]) -> [Int: String] {
    var keys: [Int: String] = [:]
    for index in found.cacheable where selected.contains(index) {
      if let fingerprint = found.fingerprints[index] { keys[index] = LaneCache.actionKey(fingerprint: fingerprint, outputs: lanes[index].outputs) }
    }
    return keys
  }

  /// Each lane's quarantined tests in date, one pattern each, as the lane's
  /// `DUET_QUARANTINED_TESTS` file holds them: part of the lane's key (pure).
  static func quarantinedTests(_ lanes: [Lane], quarantine: QuarantineRule?) -> [String: [String]] {
    var byLane: [String: [String]] = [:]
    for lane in lanes where !lane.reports.isEmpty {
      let tests = (quarantine?.active(lane: lane.name) ?? []).compactMap(\.test).filter { !$0.contains(where: \.isNewline) }
      if !tests.isEmpty { byLane[lane.name] = tests }
    }
    return byLane
  }

  /// Each selected lane's fingerprint, read from the tree (it may ask git),
  /// and the keys the plan derives from them.
  func fingerprint(_ plan: VerifyPlan, git: GitStateOnce, identity: String, quarantine: QuarantineRule?, recording: Bool) -> Keys {
    let found = InputFingerprint.compute(
      manifest: plan.manifest, builtins: plan.builtins, root: plan.root, selected: plan.selected, git: git, duetVersion: identity,
      changedFiles: plan.options.changed?.files, quarantined: Self.quarantinedTests(plan.manifest.lanes, quarantine: quarantine),
      defaultTimeout: plan.options.defaultTimeout, environment: plan.environment,
      programMemo: plan.root.appendingPathComponent(".duet/\(InputFingerprint.programMemoName)"), rememberPrograms: recording)
    return Keys(fingerprints: found, actionKeys: Self.actionKeys(found, selected: plan.selected, lanes: plan.manifest.lanes))
  }

  /// The cache decisions, round by round: decided (pure), then the served
  /// lanes' outputs restored (the edge); after a restore that wrote files the
  /// tree is keyed again (`keyAgain`) and its new keys looked up, since
  /// restored files may be other lanes' inputs.
  private func decideWithCache(_ plan: VerifyPlan, history: [String: CacheCheck.LastVerdict], keys: Keys, restoring: Bool,
                               keyAgain: () -> Keys) -> (CacheRounds, Keys, Entries) {
    var rounds = CacheRounds(options: plan.options)
    var keys = keys
    // Each key is looked up once: a later round asks only for keys that changed.
    var lookedUp: [Int: String] = [:]
    var entries = lookUp(keys.actionKeys, plan: plan, already: &lookedUp)
    while true {
      rounds.decide(plan, fingerprints: keys.fingerprints, history: history, entries: entries)
      guard let cache, !rounds.pending.isEmpty else { break }
      switch rounds.absorb(restore(rounds.pending, plan: plan, cache: cache, writing: restoring)) {
      case .done: return (rounds, keys, entries)
      case .decideAgain: continue
      case .keyAgain:
        keys = keyAgain()
        entries = lookUp(keys.actionKeys, plan: plan, already: &lookedUp)
      }
    }
    return (rounds, keys, entries)
  }

  /// Looks up in the cache (an edge: the local store, then a remote) each key
  /// not asked for yet, of a lane not settled before the run; all entries found so far.
  private func lookUp(_ actionKeys: [Int: String], plan: VerifyPlan, already: inout [Int: String]) -> Entries {
    guard let cache, !plan.options.noCache else { return [:] }
    let wanted = actionKeys.filter { plan.preset[$0.key] == nil && already[$0.key] != $0.value }
    already.merge(wanted) { $1 }
    cache.lookUp(wanted, lanes: plan.manifest.lanes)
    return cache.entries
  }

  /// The restore step, an edge: each served lane's outputs and log written
  /// back into the tree; with `writing` false (`--dry-run`) only whether they could be.
  func restore(_ pending: [Int], plan: VerifyPlan, cache: LaneCache, writing: Bool) -> [Int: CacheRounds.Restore] {
    guard writing else {
      return cache.wouldRestore(pending, lanes: plan.manifest.lanes, root: plan.root).mapValues { problem in
        (problem.map(OutputRestore.Result.cannot) ?? .restored(files: 0), nil)
      }
    }
    let logs = Dictionary(uniqueKeysWithValues: pending.map { ($0, plan.request(index: $0, attempt: 1).logPath) })
    return cache.restore(pending, lanes: plan.manifest.lanes, root: plan.root, logPaths: logs)
  }

  /// For each lane that runs, the nearest pass another checkout or machine
  /// recorded for HEAD's commit, when its fingerprint differs (a pulled run,
  /// a merged store, another clone sharing this store). Reads the store and git.
  func missedPasses(_ decided: Decided) -> [Int: CacheMiss] {
    let plan = decided.plan
    guard let historyPath, FileManager.default.fileExists(atPath: historyPath),
          let commit = ProcessOutput.git(["rev-parse", "--verify", "-q", "HEAD"], in: plan.root, environment: plan.environment),
          let reader = try? HistoryStore(path: historyPath, readOnly: true) else { return [:] }
    var found: [Int: CacheMiss] = [:]
    for (index, decision) in decided.decisions where decision != .cached {
      let name = plan.manifest.lanes[index].name
      guard let parts = decided.fingerprints.parts[index],
            let runs = try? reader.otherCheckoutRuns(lane: name, commit: commit, root: plan.root.path) else { continue }
      guard var miss = CacheMiss.nearest(parts, among: runs) else { continue }
      miss.isLastVerdict = miss.against.fingerprint == decided.readings.history[name]?.fingerprint
      found[index] = miss
    }
    return found
  }
}
