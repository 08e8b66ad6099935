import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Lane graph")
struct LaneGraphTests {
  /// a <- b <- d, a <- c <- d: a diamond.
  let diamond = LaneGraph(names: ["a", "b", "c", "d"], needs: [[], ["a"], ["a"], ["b", "c"]])

  /// Three-state DFS finds the cycle and returns it closed.
  @Test func cycles() {
    #expect(diamond.findCycle() == nil)
    let looped = LaneGraph(names: ["a", "b", "c"], needs: [["c"], ["a"], ["b"]])
    #expect(looped.findCycle() == [0, 2, 1, 0])
  }

  /// A deep chain is checked without recursion.
  @Test func deepChain() {
    let count = 20_000
    let names = (0..<count).map { "l\($0)" }
    let needs = (0..<count).map { $0 == 0 ? [] : ["l\($0 - 1)"] }
    let graph = LaneGraph(names: names, needs: needs)
    #expect(graph.findCycle() == nil)
    #expect(graph.topologicalOrder() == Array(0..<count))
  }

  /// Needs come before dependents; ties go to manifest order.
  @Test func topologicalOrder() {
    #expect(diamond.topologicalOrder() == [0, 1, 2, 3])
    let reversed = LaneGraph(names: ["x", "y"], needs: [["y"], []])
    #expect(reversed.topologicalOrder() == [1, 0])
  }

  /// The remaining path is the heaviest chain from a lane to the end.
  @Test func remainingPath() {
    let path = diamond.remainingPath(weights: [1, 5, 2, 1])
    #expect(path == [7, 6, 3, 1])
  }

  /// Run order puts the lane with the longest remaining path first among ready ones.
  @Test func runOrderPrefersTheCriticalPath() {
    // short (alone) and long1 -> long2: long1 starts first though declared second.
    let graph = LaneGraph(names: ["short", "long1", "long2"], needs: [[], [], ["long1"]])
    #expect(graph.runOrder() == [1, 0, 2])
    #expect(graph.runOrder(weights: [10, 1, 1]) == [0, 1, 2])
  }

  /// The closure of a selection adds every transitive need.
  @Test func closure() {
    #expect(diamond.closure(of: [3]) == [0, 1, 2, 3])
    #expect(diamond.closure(of: [1]) == [0, 1])
  }
}
