import DuetModel
import DuetRun
import DuetSupport
import Foundation
import DuetHistory

/// `--shard I/N`: this machine's lanes, chosen from every lane by recorded durations.
enum ShardSelection {
  /// The lane names of shard `spec`; says which and why through `observer`.
  static func lanes(_ spec: Sharding.Spec, manifest: Manifest, historyPath: String?, observer: VerifyObserver) -> [String] {
    let text = "\(spec.index)/\(spec.count)"
    let names = manifest.lanes.map(\.name)
    var durations: [String: Double] = [:]
    if let historyPath, FileManager.default.fileExists(atPath: historyPath) {
      do {
        durations = try HistoryStore(path: historyPath).lastDurations(lanes: names)
      } catch {
        observer.warning("--shard: cannot read the history (\(error)); every lane weighs 1")
      }
    }
    let weights = names.map { durations[$0] ?? 1 }
    let mine = Sharding.lanes(of: spec, names: names, weights: weights)
    let load = Sharding.loads([mine], weights: weights)[0]
    let total = weights.reduce(0, +)
    let basis = durations.isEmpty ? "no recorded durations, every lane weighs 1" : "by recorded durations, expected \(DurationText.format(load)) of \(DurationText.format(total))"
    observer.notice(mine.isEmpty
      ? "duet verify --shard \(text): no lane falls in this shard (\(names.count) lane(s) over \(spec.count) shards)"
      : "duet verify --shard \(text): \(mine.count) of \(names.count) lane(s) (\(basis)): \(listed(mine.map { names[$0] }))")
    return mine.map { names[$0] }
  }

  /// At most 20 names, then how many more.
  static func listed(_ names: [String]) -> String {
    let shown = names.prefix(20).joined(separator: ", ")
    return names.count > 20 ? shown + " and \(names.count - 20) more" : shown
  }
}
