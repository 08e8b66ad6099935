import DuetSupport

/// `duet verify --shard I/N`: which shard of a CI matrix runs which lanes.
///
/// Longest-processing-time first: lanes sorted by recorded duration, longest
/// first (ties by name), each given to the least-loaded shard (ties to the lower
/// shard number). Deterministic for the same names and weights, so N runners
/// that read the same history agree on the split, and every lane lands in
/// exactly one shard.
package enum Sharding {
  /// `I/N` from the command line, 1-based.
  package struct Spec: Sendable, Equatable {
    package var index: Int
    package var count: Int

    /// Parses `2/3`; nil unless `1 <= I <= N`.
    package static func parse(_ text: String) -> Spec? {
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n,
            parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII) else { return nil }
      return Spec(index: i, count: n)
    }
  }

  /// The lanes of each of `count` shards, as indices into `names`, each shard in
  /// ascending index order. `weights[i]` is lane `i`'s expected seconds.
  package static func partition(names: [String], weights: [Double], count: Int) -> [[Int]] {
    guard count > 0 else { return [] }
    let weight: (Int) -> Double = { i in
      let w = i < weights.count ? weights[i] : 1
      return w.isFinite && w > 0 ? w : 0
    }
    let order = names.indices.sorted { a, b in
      weight(a) != weight(b) ? weight(a) > weight(b) : (names[a] != names[b] ? names[a] < names[b] : a < b)
    }
    var shards = [[Int]](repeating: [], count: count)
    var loads = [Double](repeating: 0, count: count)
    for lane in order {
      var best = 0
      for shard in 1..<count where loads[shard] < loads[best] || (loads[shard] == loads[best] && shards[shard].count < shards[best].count) {
        best = shard
      }
      shards[best].append(lane)
      loads[best] += weight(lane)
    }
    return shards.map { $0.sorted() }
  }

  /// The lanes of shard `spec.index` alone. Only as many shards as there are
  /// lanes are ever laid out (past that, longest-first gives each lane a shard
  /// of its own in order, and the rest are empty), so memory and time do not
  /// depend on `spec.count`: `--shard 1/9223372036854775807` is cheap.
  package static func lanes(of spec: Spec, names: [String], weights: [Double]) -> [Int] {
    let laidOut = min(spec.count, names.count)
    guard spec.index >= 1, spec.index <= laidOut else { return [] }
    return partition(names: names, weights: weights, count: laidOut)[spec.index - 1]
  }

  /// The expected seconds of each shard.
  package static func loads(_ shards: [[Int]], weights: [Double]) -> [Double] {
    shards.map { $0.reduce(0) { $0 + ($1 < weights.count ? weights[$1] : 1) } }
  }
}
