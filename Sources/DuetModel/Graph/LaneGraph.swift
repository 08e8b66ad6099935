import DuetSupport

/// The lane DAG as plain indices: lane `i` needs `needs[i]`, and `dependents` is the reverse.
///
/// Kept free of scheduling state so validation, `duet lanes`, `--dry-run` and the
/// scheduler all read the same structure.
package struct LaneGraph: Sendable {
  package let names: [String]
  package let needs: [[Int]]
  package let dependents: [[Int]]

  /// Needs naming no lane are dropped here; the manifest loader reports them.
  init(names: [String], needs: [[String]]) {
    self.names = names
    var index: [String: Int] = [:]
    for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
    var resolved: [[Int]] = []
    var reverse = [[Int]](repeating: [], count: names.count)
    for (i, list) in needs.enumerated() {
      var seen = Set<Int>()
      var row: [Int] = []
      for need in list {
        guard let j = index[need], seen.insert(j).inserted else { continue }
        row.append(j)
        reverse[j].append(i)
      }
      resolved.append(row)
    }
    self.needs = resolved
    self.dependents = reverse
  }

  package var count: Int { names.count }

  /// A cycle as a closed path of indices (`[a, b, c, a]`), or nil when the graph is a DAG.
  ///
  /// Depth-first with three marks (unvisited, on the current path, done), kept on
  /// an explicit stack so a deep chain cannot overflow a thread's stack.
  func findCycle() -> [Int]? {
    enum Mark { case unvisited, onPath, done }
    var marks = [Mark](repeating: .unvisited, count: count)
    for start in 0..<count where marks[start] == .unvisited {
      var path: [Int] = [start]
      var nextEdge: [Int] = [0]
      marks[start] = .onPath
      while let node = path.last {
        let edge = nextEdge[nextEdge.count - 1]
        if edge < needs[node].count {
          nextEdge[nextEdge.count - 1] += 1
          let next = needs[node][edge]
          switch marks[next] {
          case .onPath:
            let from = path.firstIndex(of: next)!
            return Array(path[from...]) + [next]
          case .unvisited:
            marks[next] = .onPath
            path.append(next)
            nextEdge.append(0)
          case .done:
            break
          }
        } else {
          marks[node] = .done
          path.removeLast()
          nextEdge.removeLast()
        }
      }
    }
    return nil
  }

  /// For each lane, the longest total weight of a chain that starts at it and runs
  /// through its dependents: the work that cannot begin until it is done.
  /// Requires a DAG.
  package func remainingPath(weights: [Double]) -> [Double] {
    var result = [Double](repeating: 0, count: count)
    for node in topologicalOrder().reversed() {
      let longestAfter = dependents[node].map { result[$0] }.max() ?? 0
      result[node] = weights[node] + longestAfter
    }
    return result
  }

  /// Every lane before its dependents; ties go to manifest order. Requires a DAG.
  package func topologicalOrder() -> [Int] {
    var waiting = needs.map(\.count)
    var ready = (0..<count).filter { waiting[$0] == 0 }
    var order: [Int] = []
    order.reserveCapacity(count)
    var heap = MinHeap<Int>(ready)
    ready.removeAll()
    while let node = heap.pop() {
      order.append(node)
      for dependent in dependents[node] {
        waiting[dependent] -= 1
        if waiting[dependent] == 0 { heap.push(dependent) }
      }
    }
    return order
  }

  /// `lanes` and everything they need, transitively.
  package func closure(of lanes: Set<Int>) -> Set<Int> {
    var result = lanes
    var stack = Array(lanes)
    while let node = stack.popLast() {
      for need in needs[node] where result.insert(need).inserted { stack.append(need) }
    }
    return result
  }
}

/// A small binary heap; the scheduler and the topological sort pop the least element first.
package struct MinHeap<Element: Comparable & Sendable>: Sendable {
  private var items: [Element] = []

  package init(_ elements: [Element] = []) {
    for element in elements { push(element) }
  }

  package var isEmpty: Bool { items.isEmpty }
  var count: Int { items.count }
  /// The least element, left in place.
  package var first: Element? { items.first }

  package mutating func push(_ element: Element) {
    items.append(element)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child] < items[parent] else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  package mutating func pop() -> Element? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let top = items.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1, right = left + 1
      var smallest = parent
      if left < items.count && items[left] < items[smallest] { smallest = left }
      if right < items.count && items[right] < items[smallest] { smallest = right }
      if smallest == parent { break }
      items.swapAt(parent, smallest)
      parent = smallest
    }
    return top
  }
}

extension LaneGraph {
  /// The order the scheduler would start lanes in with unlimited jobs and equal
  /// durations: needs first; among lanes ready together, the longest remaining
  /// path first, then manifest order. `duet lanes` and `--dry-run` print it.
  package func runOrder(weights: [Double]? = nil) -> [Int] {
    let weights = weights ?? [Double](repeating: 1, count: count)
    let remaining = remainingPath(weights: weights)
    var waiting = needs.map(\.count)
    var heap = MinHeap<ReadyLane>((0..<count).filter { waiting[$0] == 0 }.map { ReadyLane(index: $0, remaining: remaining[$0]) })
    var order: [Int] = []
    while let next = heap.pop() {
      order.append(next.index)
      for dependent in dependents[next.index] {
        waiting[dependent] -= 1
        if waiting[dependent] == 0 { heap.push(ReadyLane(index: dependent, remaining: remaining[dependent])) }
      }
    }
    return order
  }
}

/// A lane waiting to start, ordered so the heap pops the longest remaining path first.
package struct ReadyLane: Comparable, Sendable {
  package var index: Int
  var remaining: Double
  package init(index: Int, remaining: Double) {
    self.index = index
    self.remaining = remaining
  }
  package static func < (a: ReadyLane, b: ReadyLane) -> Bool {
    a.remaining != b.remaining ? a.remaining > b.remaining : a.index < b.index
  }
}
