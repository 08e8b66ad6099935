import Foundation
import DuetModel

/// How `duet workflow github|gitlab` puts lanes into CI jobs, shared by both
/// files. By default lanes are grouped: one job per platform's runners and DAG
/// level (a lane's level is one more than the deepest lane it needs), so lanes of
/// one job never need each other and `duet verify --lane A --lane B --no-deps`
/// runs them all; a group is split into more jobs only where its lanes' recorded
/// durations say the longest job gets shorter by more than the added runners' starts.
/// Without durations a group is one job, so 200 independent lanes are one job.
/// `oneJobPerLane` keeps one job per lane, its id from the lane's name.
package struct CIJobPlan: Sendable {
  package struct Job: Sendable, Equatable {
    /// A safe job id (`linux-1`, or the lane's id with one job per lane).
    var id: String
    /// The indices of its lanes in the manifest, in manifest order.
    var lanes: [Int]
    /// Whether its lanes can run only on macOS.
    var macOS: Bool
    /// Its runner labels (GitHub) or tags (GitLab).
    var labels: [String]
    /// The jobs (indices into `jobs`) its lanes need, in order.
    var needs: [Int]
    /// The `outputs:` of its lanes that a lane of another job needs.
    var handsOn: [String]
    /// The jobs (indices) whose `handsOn` its lanes read.
    var receives: [Int]
  }

  package struct Options: Sendable {
    package var oneJobPerLane = false
    /// Seconds a job costs before its first lane starts (runner, checkout, duet):
    /// a group is split only when the longest job gets shorter by more.
    package var runnerStart: Double = 60
    /// The last recorded duration of each lane, by name.
    package var durations: [String: Double] = [:]
    package init() {}
  }

  /// The most jobs one group is split into, whatever the durations say.
  static let maxJobsPerGroup = 20

  package var jobs: [Job]
  /// The job of each lane, by lane index.
  var jobOfLane: [Int]

  /// The plan for `manifest`; `labels` gives a lane's runner labels.
  static func make(
    _ manifest: Manifest, options: Options, labels: (Lane) -> [String]
  ) throws(GitHubWorkflow.JobIDClash) -> CIJobPlan {
    let lanes = manifest.lanes
    let groups: [[Int]]
    var ids: [String]
    if options.oneJobPerLane {
      groups = lanes.indices.map { [$0] }
      ids = try GitHubWorkflow.jobIDs(for: lanes.map(\.name))
    } else {
      groups = grouped(manifest, options: options, labels: labels)
      ids = []
    }
    var jobOfLane = [Int](repeating: 0, count: lanes.count)
    for (j, group) in groups.enumerated() { for lane in group { jobOfLane[lane] = j } }
    if ids.isEmpty { ids = groupIDs(groups, lanes: lanes) }
    var jobs: [Job] = []
    jobs.reserveCapacity(groups.count)
    for (j, group) in groups.enumerated() {
      let first = lanes[group[0]]
      jobs.append(Job(id: ids[j], lanes: group, macOS: first.platforms == [.macos], labels: labels(first), needs: [], handsOn: [], receives: []))
    }
    link(&jobs, manifest: manifest, jobOfLane: jobOfLane)
    return CIJobPlan(jobs: jobs, jobOfLane: jobOfLane)
  }

  /// Fills each job's `needs`, `receives` and `handsOn` from its lanes' needs.
  static func link(_ jobs: inout [Job], manifest: Manifest, jobOfLane: [Int]) {
    var handsOn = [Set<String>](repeating: [], count: jobs.count)
    for j in jobs.indices {
      var needs = Set<Int>()
      var receives = Set<Int>()
      for lane in jobs[j].lanes {
        for need in manifest.graph.needs[lane] where jobOfLane[need] != j {
          needs.insert(jobOfLane[need])
          let outputs = manifest.lanes[need].outputs
          if !outputs.isEmpty {
            receives.insert(jobOfLane[need])
            handsOn[jobOfLane[need]].formUnion(outputs)
          }
        }
      }
      jobs[j].needs = needs.sorted()
      jobs[j].receives = receives.sorted()
    }
    for j in jobs.indices {
      // In the order the lanes declare them.
      var seen = Set<String>()
      jobs[j].handsOn = jobs[j].lanes.flatMap { manifest.lanes[$0].outputs }.filter { handsOn[j].contains($0) && seen.insert($0).inserted }
    }
  }

  /// Lanes grouped by runner labels and DAG level, groups ordered by level,
  /// then by the first lane's place in the manifest; each split by durations.
  static func grouped(_ manifest: Manifest, options: Options, labels: (Lane) -> [String]) -> [[Int]] {
    let graph = manifest.graph
    var level = [Int](repeating: 0, count: graph.count)
    for lane in graph.topologicalOrder() {
      for need in graph.needs[lane] { level[lane] = max(level[lane], level[need] + 1) }
    }
    struct Key: Hashable { var level: Int; var macOS: Bool; var labels: [String] }
    var index: [Key: Int] = [:]
    var groups: [(key: Key, lanes: [Int])] = []
    for (i, lane) in manifest.lanes.enumerated() {
      let key = Key(level: level[i], macOS: lane.platforms == [.macos], labels: labels(lane))
      if let g = index[key] {
        groups[g].lanes.append(i)
      } else {
        index[key] = groups.count
        groups.append((key, [i]))
      }
    }
    let ordered = groups.enumerated().sorted { ($0.element.key.level, $0.offset) < ($1.element.key.level, $1.offset) }.map(\.element.lanes)
    let names = manifest.lanes.map(\.name)
    return ordered.flatMap { split($0, names: names, options: options) }
  }

  /// One group as jobs: the count (at most `maxJobsPerGroup`) whose longest
  /// job plus a runner's start per job is least, so a job more is added only
  /// when it cuts the longest job by more than it costs to start; lanes are
  /// laid out longest first, each to the least-loaded job; a lane without a
  /// recorded duration weighs 1 s. Ties go to fewer jobs.
  static func split(_ group: [Int], names: [String], options: Options) -> [[Int]] {
    guard group.count > 1, group.contains(where: { options.durations[names[$0]] != nil }) else { return [group] }
    let weights = group.map { options.durations[names[$0]] ?? 1 }
    let groupNames = group.map { names[$0] }
    var best = [Array(group.indices)]
    var bestCost = weights.reduce(0, +) + options.runnerStart
    for count in stride(from: 2, through: min(group.count, maxJobsPerGroup), by: 1) {
      let parts = Sharding.partition(names: groupNames, weights: weights, count: count)
      let longest = parts.map { $0.reduce(0) { $0 + weights[$1] } }.max() ?? 0
      let cost = longest + options.runnerStart * Double(count)
      if cost < bestCost { (best, bestCost) = (parts, cost) }
    }
    return best.map { part in part.sorted().map { group[$0] } }.filter { !$0.isEmpty }
  }

  /// `linux-1`, `linux-2`, `macos-1`…: numbered per platform in job order.
  static func groupIDs(_ groups: [[Int]], lanes: [Lane]) -> [String] {
    var counts: [Bool: Int] = [:]
    return groups.map { group in
      let macOS = lanes[group[0]].platforms == [.macos]
      counts[macOS, default: 0] += 1
      return (macOS ? "macos-" : "linux-") + String(counts[macOS]!)
    }
  }
}
