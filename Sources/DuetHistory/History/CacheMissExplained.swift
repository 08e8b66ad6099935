import DuetSupport

extension CacheMiss {
  /// `duet explain LANE` in words: the run compared with (its log id, where it
  /// ran, how it ended, its commit) and each part that differs, or that nothing
  /// does; so the command reads none of the run's fields one by one.
  package func explained(lane: String) -> [TerminalLine] {
    let run = against
    let commit = run.commit.map { " on commit \($0.prefix(12))" } ?? ""
    guard !differences.isEmpty else {
      return ["duet explain \(lane): the same fingerprint as run \(run.logID) (\(run.origin), \(run.outcome.rawValue)\(commit)): nothing differs"]
    }
    let verb = run.outcome == .pass || run.outcome == .flaky ? "misses" : "differs from"
    let head: TerminalLine = "duet explain \(lane): \(verb) \(run.outcome == .pass || run.outcome == .flaky ? named : "run \(run.logID) (\(run.origin), \(run.outcome.rawValue))")\(commit) in \(differences.count) part(s):"
    return [head] + differences.map { "  \($0)" }
  }
}
