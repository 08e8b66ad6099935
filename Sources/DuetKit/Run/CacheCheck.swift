/// Which lanes a verify serves from the cache, and why every other lane runs.
///
/// A lane is cached only when its fingerprint (inputs, command, env, dir and its
/// needs' fingerprints) equals the one of its newest recorded verdict, that
/// verdict passed, and every need in the run is cached too. A cached lane never
/// starts. Pure: the history and the fingerprints come in as values.
public enum CacheCheck {
  /// A lane's newest recorded verdict (pass, flaky, cached, fail or timeout).
  public struct LastVerdict: Sendable, Equatable {
    public var outcome: String
    public var fingerprint: String?
    /// The parts of that fingerprint, when the store kept them.
    public var parts: FingerprintParts?
    public init(outcome: String, fingerprint: String?, parts: FingerprintParts? = nil) {
      self.outcome = outcome
      self.fingerprint = fingerprint
      self.parts = parts
    }

    var passed: Bool { outcome == "pass" || outcome == "flaky" || outcome == "cached" }
  }

  /// A lane's cache decision: `cached`, or the reason it runs.
  public enum Decision: Sendable, Equatable {
    case cached
    case runs(String)

    public var text: String {
      switch self {
      case .cached: return "cached"
      case .runs(let reason): return reason
      }
    }
  }

  /// A decision for every selected lane not settled before the run.
  public static func decide(manifest: Manifest, selected: Set<Int>, settled: Set<Int>, fingerprints: InputFingerprint.Result,
                            history: [String: LastVerdict], noCache: Bool) -> [Int: Decision] {
    var decisions: [Int: Decision] = [:]
    let graph = manifest.graph
    for index in graph.topologicalOrder() where selected.contains(index) && !settled.contains(index) {
      decisions[index] = decide(index, manifest: manifest, selected: selected, settled: settled, decisions: decisions,
                                fingerprints: fingerprints, history: history, noCache: noCache)
    }
    return decisions
  }

  private static func decide(_ index: Int, manifest: Manifest, selected: Set<Int>, settled: Set<Int>, decisions: [Int: Decision],
                             fingerprints: InputFingerprint.Result, history: [String: LastVerdict], noCache: Bool) -> Decision {
    let lane = manifest.lanes[index]
    if noCache { return .runs("--no-cache") }
    guard fingerprints.cacheable.contains(index), let fingerprint = fingerprints.fingerprints[index] else {
      return .runs(lane.isBuiltin ? "no inputs known" : "no inputs declared")
    }
    let graph = manifest.graph
    let running = graph.needs[index].filter { selected.contains($0) && (settled.contains($0) || decisions[$0] != .cached) }
    if !running.isEmpty {
      return .runs("\(running.count == 1 ? "a need" : "needs") will run (\(FingerprintParts.listed(running.map { graph.names[$0] })))")
    }
    guard let last = history[lane.name] else { return .runs("no passing run recorded") }
    if last.fingerprint == fingerprint {
      return last.passed ? .cached : .runs("\(last.outcome == "timeout" ? "timed out" : "failed") last time with these inputs")
    }
    if let earlier = last.parts, let now = fingerprints.parts[index] {
      let changes = now.changes(since: earlier)
      if let first = changes.first { return .runs(first) }
    }
    return .runs(last.passed ? "inputs or definition changed since it last passed" : "inputs or definition changed since it last ran")
  }
}
