import DuetHistory
import DuetModel
import DuetSupport

/// Which lanes a change touches (`--since`, `--changed`): a lane runs when one
/// of its inputs (a built-in's own inputs included) or the modules it `covers`
/// match a changed file, or when a lane it needs runs; a lane that declares
/// neither inputs nor covers always runs, since nothing says what it depends
/// on. The rest are `unaffected`. Pure: the changed files come in as a list.
package enum AffectedLanes {
  package enum Decision: Sendable, Equatable {
    case runs(String)
    case unaffected
  }

  /// A decision for each selected lane. `implicitInputs` gives a built-in's own
  /// input globs; `moduleInputs`, by module folder, the globs a module depends on
  /// (its files, the modules it depends on, its build's own files), which affect
  /// every lane that `covers:` it.
  static func decide(manifest: Manifest, selected: Set<Int>, changed: [String],
                            implicitInputs: (Lane) -> [String] = { _ in [] },
                            moduleInputs: [String: [String]] = [:]) -> [Int: Decision] {
    var decisions: [Int: Decision] = [:]
    let graph = manifest.graph
    for index in graph.topologicalOrder() where selected.contains(index) {
      let lane = manifest.lanes[index]
      let inputs = (lane.inputs + implicitInputs(lane) + lane.covers.flatMap { moduleInputs[$0] ?? [] }).map(Glob.init)
      let covers = lane.covers.map(Glob.init)
      let running = graph.needs[index].filter { selected.contains($0) && decisions[$0] != .unaffected }
      if !running.isEmpty {
        decisions[index] = .runs("\(running.count == 1 ? "a need runs" : "needs run") (\(FingerprintParts.listed(running.map { graph.names[$0] })))")
      } else if inputs.isEmpty && covers.isEmpty {
        decisions[index] = .runs("declares no inputs or covers, so it always runs")
      } else {
        let hits = changed.filter { path in
          inputs.contains { $0.matches(path, hidden: .ordinary) } || covers.contains { ModuleDiscovery.covered(path, by: $0) }
        }
        decisions[index] = hits.isEmpty ? .unaffected : .runs("changed: \(FingerprintParts.listed(hits))")
      }
    }
    return decisions
  }
}
