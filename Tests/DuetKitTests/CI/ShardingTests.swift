import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Sharding")
struct ShardingTests {
  /// A little pseudo-random generator, so the lane sets vary but the test is repeatable.
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return state >> 33
    }
  }

  /// For N from 1 to 9 and several lane sets, every lane is in exactly one shard.
  @Test func partitionsEveryLaneOnce() {
    var generator = Generator(state: 7)
    for laneCount in [0, 1, 2, 5, 13, 40] {
      let names = (0..<laneCount).map { "lane-\(generator.next() % 1000)-\($0)" }
      let weights = names.map { _ in Double(generator.next() % 600) / 10 }
      for n in 1...9 {
        let shards = Sharding.partition(names: names, weights: weights, count: n)
        #expect(shards.count == n)
        let all = shards.flatMap { $0 }
        #expect(all.sorted() == Array(0..<laneCount), "N=\(n) lanes=\(laneCount)")
        #expect(shards.allSatisfy { $0 == $0.sorted() })
      }
    }
  }

  /// The greedy split is within the longest lane of a perfect split: max load <= total/N + the heaviest lane.
  @Test func isBalanced() {
    var generator = Generator(state: 42)
    for _ in 0..<20 {
      let count = Int(generator.next() % 50) + 1
      let names = (0..<count).map { "l\($0)" }
      let weights = names.map { _ in Double(generator.next() % 1000) / 10 + 0.1 }
      for n in [2, 3, 4, 7] {
        let loads = Sharding.loads(Sharding.partition(names: names, weights: weights, count: n), weights: weights)
        let bound = weights.reduce(0, +) / Double(n) + (weights.max() ?? 0)
        #expect((loads.max() ?? 0) <= bound + 1e-9)
      }
    }
  }

  /// Longest first to the least-loaded shard: 8, 7, 6, 5, 4 over two shards gives {8, 5, 4} and {7, 6}.
  @Test func longestFirstGreedy() {
    let names = ["a", "b", "c", "d", "e"]
    let weights: [Double] = [4, 8, 5, 7, 6]
    let shards = Sharding.partition(names: names, weights: weights, count: 2)
    #expect(shards == [[0, 1, 2], [3, 4]])
    #expect(Sharding.loads(shards, weights: weights) == [17, 13])
  }

  /// Equal weights tie by name, so the same lanes always land in the same shard whatever the manifest order.
  @Test func deterministicTies() {
    let names = ["d", "b", "a", "c"]
    let shards = Sharding.partition(names: names, weights: [1, 1, 1, 1], count: 2)
    #expect(shards.map { $0.map { names[$0] }.sorted() } == [["a", "c"], ["b", "d"]])
    #expect(Sharding.partition(names: names, weights: [1, 1, 1, 1], count: 2) == shards)
  }

  /// I/N parses only with 1 <= I <= N.
  @Test func parsesSpecs() {
    #expect(Sharding.Spec.parse("2/3") == Sharding.Spec(index: 2, count: 3))
    #expect(Sharding.Spec.parse("1/1") == Sharding.Spec(index: 1, count: 1))
    for bad in ["0/3", "4/3", "3", "/3", "1/", "a/b", "1/3/4", "-1/3", "1/0", ""] {
      #expect(Sharding.Spec.parse(bad) == nil, "\(bad)")
    }
  }
}

@Suite("Tracked changes")
struct TrackedChangesTests {
  /// Porcelain -z records parse to status and path, skipping a rename's old path.
  @Test func parsesPorcelain() {
    let data = Data(" M a.txt\u{0}R  new.txt\u{0}old.txt\u{0}D  gone file.txt\u{0}".utf8)
    let parsed = TrackedChanges.parse(data)
    #expect(parsed.map(\.status) == [" M", "R ", "D "])
    #expect(parsed.map(\.path) == ["a.txt", "new.txt", "gone file.txt"])
  }

  /// A file is changed when its status or content digest differ, or it appears or disappears.
  @Test func comparesSnapshots() {
    let before = TrackedChanges(entries: ["a": " M 1", "b": " M 2", "c": " M 3"])
    let after = TrackedChanges(entries: ["a": " M 1", "b": " M 9", "d": " M 4"])
    #expect(TrackedChanges.changed(before: before, after: after) == ["b", "c", "d"])
    #expect(TrackedChanges.changed(before: before, after: before).isEmpty)
  }
}
