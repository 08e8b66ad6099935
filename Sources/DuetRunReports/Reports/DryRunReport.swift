/// What `duet verify --dry-run` would do, lane by lane in start order: the value
/// both its text and its `--json` are printed from.
package struct DryRunReport: Codable, Sendable, Equatable {
  /// A lane and what the run would do with it.
  package struct Lane: Codable, Sendable, Equatable {
    package var name: String
    /// `cached`, `skipped`/`fail` (settled before the run) or `runs`.
    package var status: String
    /// Why: the cache's word, the change that affects it, or why it cannot start.
    package var reason: String
    var needs: [String]
    var command: String

    package init(name: String, status: String, reason: String, needs: [String], command: String) {
      self.name = name
      self.status = status
      self.reason = reason
      self.needs = needs
      self.command = command
    }
  }

  /// Always true, so a script can tell this report from a run's.
  var dryRun = true
  /// How many lanes would run at once.
  package var jobs: Int
  package var lanes: [Lane]

  package init(jobs: Int, lanes: [Lane]) {
    self.jobs = jobs
    self.lanes = lanes
  }

  /// The summary line's parts: `2 would run, 1 cached`, then any skipped, unaffected or failing.
  package var countParts: [String] {
    var counts: [String: Int] = [:]
    for lane in lanes { counts[lane.status, default: 0] += 1 }
    var parts = ["\(counts["runs"] ?? 0) would run", "\(counts["cached"] ?? 0) cached"]
    if let skipped = counts["skipped"] { parts.append("\(skipped) skipped") }
    if let unaffected = counts["unaffected"] { parts.append("\(unaffected) unaffected") }
    if let failed = counts["fail"] { parts.append("\(failed) would fail") }
    return parts
  }
}
