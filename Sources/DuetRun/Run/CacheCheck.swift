import DuetHistory
import DuetModel
import DuetSupport

/// Which lanes a verify serves from the cache, and why every other lane runs.
///
/// A lane is cached only when every need in the run is cached too and a cache
/// entry (local or remote) holds a pass under its action key: the entry is the
/// one record that a lane passed. The history is a log that reads from it,
/// never a second gate: it only gives the reason a lane runs (what changed
/// since it last ran), and its failure with these very inputs outweighs
/// someone else's pass. A cached lane never starts. Pure: the history, the
/// entries and the fingerprints come in as values.
package enum CacheCheck {

  /// A lane's cache decision: `cached`, or the reason it runs.
  package enum Decision: Sendable, Equatable {
    case cached
    case runs(String)

    package var text: String {
      switch self {
      case .cached: return "cached"
      case .runs(let reason): return reason
      }
    }
  }

  /// The run a cached pass would serve: `--strict` or not, the whole tree or a change list.
  struct RunConditions: Sendable, Equatable {
    var strict = false
    var partial = false
    /// `--strict=flaky`: a pass that came only on a retry serves no run.
    var refusesFlaky = false
    init(strict: Bool = false, partial: Bool = false, refusesFlaky: Bool = false) {
      self.strict = strict
      self.partial = partial
      self.refusesFlaky = refusesFlaky
    }
  }

  /// A decision for every selected lane not settled before the run.
  /// `settled` holds the outcomes decided before the run (a missing program,
  /// `unaffected`); a need settled as passing (`unaffected`) does not run.
  static func decide(manifest: Manifest, selected: Set<Int>, settled: [Int: LaneOutcome], fingerprints: InputFingerprint.Result,
                            history: [String: LastVerdict], entries: [Int: PassConditions] = [:], forced: [Int: String] = [:],
                            noCache: Bool, run: RunConditions = RunConditions()) -> [Int: Decision] {
    var decisions: [Int: Decision] = [:]
    let graph = manifest.graph
    for index in graph.topologicalOrder() where selected.contains(index) && settled[index] == nil {
      decisions[index] = decide(index, manifest: manifest, selected: selected, settled: settled, decisions: decisions,
                                fingerprints: fingerprints, history: history, entry: entries[index], forced: forced,
                                noCache: noCache, run: run)
    }
    return decisions
  }

  private static func decide(_ index: Int, manifest: Manifest, selected: Set<Int>, settled: [Int: LaneOutcome], decisions: [Int: Decision],
                             fingerprints: InputFingerprint.Result, history: [String: LastVerdict], entry: PassConditions?,
                             forced: [Int: String], noCache: Bool, run: RunConditions) -> Decision {
    let lane = manifest.lanes[index]
    if noCache { return .runs("--no-cache") }
    if let reason = forced[index] { return .runs(reason) }
    guard fingerprints.cacheable.contains(index), let fingerprint = fingerprints.fingerprints[index] else {
      if let empty = fingerprints.unmatched[index] { return .runs("its inputs match no file (\(FingerprintParts.listed(empty)))") }
      if let problem = fingerprints.unkeyable[index] { return .runs("its inputs reach a file duet cannot fingerprint: \(problem)") }
      return .runs(lane.isBuiltin ? "no inputs known" : "no inputs declared")
    }
    let graph = manifest.graph
    let running = graph.needs[index].filter { need in
      guard selected.contains(need) else { return false }
      if let outcome = settled[need] { return !(outcome == .cached || outcome == .unaffected) }
      return decisions[need] != .cached
    }
    if !running.isEmpty {
      return .runs("\(running.count == 1 ? "a need" : "needs") will run (\(FingerprintParts.listed(running.map { graph.names[$0] })))")
    }
    let last = history[lane.name]
    let byHistory = historyDecision(last, fingerprint: fingerprint, now: fingerprints.parts[index], run: run)
    // No entry, no pass to serve, whatever the history says (its entry was
    // pruned, or its outputs could not be stored).
    guard let entry else { return byHistory == .cached ? .runs("no cache entry holds its pass (the cache was pruned or cleared)") : byHistory }
    // A cache entry under the same action key holds a pass: it serves unless
    // this history saw these very inputs fail (that evidence outweighs
    // someone else's pass) or its conditions do not cover this run.
    if let last, last.fingerprint == fingerprint, !last.passed { return byHistory }
    // Under --strict=flaky, the entry of a pass this history saw come only on a retry serves no more than the history does.
    if run.refusesFlaky, let last, last.fingerprint == fingerprint, last.retried != nil { return byHistory }
    if let refusal = entry.refusal(strict: run.strict, partial: run.partial) { return .runs(refusal) }
    return .cached
  }

  /// What the newest recorded verdict says of a lane whose needs are all cached.
  private static func historyDecision(_ last: LastVerdict?, fingerprint: String, now: FingerprintParts?, run: RunConditions) -> Decision {
    guard let last else { return .runs("no passing run recorded") }
    guard last.fingerprint != nil else {
      return .runs("its last run left no fingerprint to compare (a --strict run that changed tracked files)")
    }
    if last.fingerprint == fingerprint {
      guard last.passed else { return .runs(notPassed(last.outcome)) }
      if let refusal = last.judged.refusal(strict: run.strict, partial: run.partial) { return .runs(refusal) }
      if run.refusesFlaky, let retried = last.retried { return .runs("\(retried.words) (--strict=flaky)") }
      return .cached
    }
    if let earlier = last.parts, let now {
      let changes = now.changes(since: earlier)
      if let first = changes.first { return .runs(first) }
    }
    return .runs(last.passed ? "inputs or definition changed since it last passed" : "inputs or definition changed since it last ran")
  }

  /// Why a lane whose newest verdict with these inputs is not a pass runs.
  private static func notPassed(_ outcome: LaneOutcome?) -> String {
    switch outcome {
    case .timeout?: return "timed out last time with these inputs"
    case nil: return "its last run with these inputs recorded an outcome this duet does not know (another duet's?), so no pass is served"
    default: return "failed last time with these inputs"
    }
  }
}
