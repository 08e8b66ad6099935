import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Scheduler")
struct SchedulerTests {
  /// However many lanes are ready, no more than `--jobs` run at once.
  @Test func jobsBoundIsNeverExceeded() {
    let many = lanes((0..<40).map { ("l\($0)", []) })
    for jobs in [1, 3] {
      let runner = FakePoller(defaultDelay: 0.005)
      let (result, _) = schedule(many, runner: runner, jobs: jobs)
      #expect(runner.maxConcurrent == jobs)
      #expect(result.lanes.allSatisfy { $0.outcome == .pass })
    }
  }

  /// Independent lanes run at the same time; a lane waits for its needs.
  @Test func independentLanesOverlap() {
    let runner = FakePoller(delays: ["a": 0.2, "b": 0.2])
    let (result, _) = schedule(lanes([("a", []), ("b", []), ("c", ["a", "b"])]), runner: runner, jobs: 2)
    #expect(result.failed.isEmpty && !result.interrupted)
    #expect(runner.overlapped("a", "b"))
    #expect(!runner.overlapped("a", "c"))
    #expect(runner.startOrder.last == "c")
  }

  /// A failure skips its dependents, transitively, naming the direct need; other branches go on.
  @Test func skipsPropagate() {
    let runner = FakePoller(script: ["b": [.fail]])
    let (result, by) = schedule(lanes([("a", []), ("b", ["a"]), ("c", ["b"]), ("d", ["c"]), ("e", ["a"])]), runner: runner)
    #expect(by["b"]?.outcome == .fail)
    #expect(by["c"]?.outcome == .skipped && by["c"]?.reason == "needs b")
    #expect(by["d"]?.outcome == .skipped && by["d"]?.reason == "needs c")
    #expect(by["e"]?.outcome == .pass)
    #expect(result.failed.map(\.name) == ["b"])
    #expect(!runner.startOrder.contains("c"))
  }

  /// A lane that fails and then passes on a retry is flaky and does not fail the run.
  @Test func retriesMakeFlaky() {
    let runner = FakePoller(script: ["a": [.fail, .pass], "b": [.fail, .timeout]])
    let (result, by) = schedule(lanes([("a", []), ("b", [])], retries: ["a": 2, "b": 1]), runner: runner)
    #expect(by["a"]?.outcome == .flaky)
    #expect(by["a"]?.attempts.count == 2)
    #expect(by["b"]?.outcome == .timeout)
    #expect(by["b"]?.attempts.map(\.outcome) == [.fail, .timeout])
    #expect(result.flaky.map(\.name) == ["a"])
    #expect(result.failed.map(\.name) == ["b"])
  }

  /// With --fail-fast, nothing starts after a failure; what never started is cancelled.
  @Test func failFast() {
    let runner = FakePoller(script: ["a": [.fail]])
    let (_, by) = schedule(lanes([("a", []), ("b", []), ("c", []), ("d", [])]), runner: runner, jobs: 1, failFast: true)
    #expect(runner.startOrder == ["a"])
    #expect(by["a"]?.outcome == .fail)
    #expect(["b", "c", "d"].allSatisfy { by[$0]?.outcome == .cancelled })
  }

  /// Among ready lanes, the longest remaining path starts first.
  @Test func criticalPathFirst() {
    let runner = FakePoller()
    let spec = lanes([("short1", []), ("short2", []), ("chain1", []), ("chain2", ["chain1"]), ("chain3", ["chain2"])])
    _ = schedule(spec, runner: runner, jobs: 1)
    #expect(runner.startOrder.first == "chain1")
    let weighted = FakePoller()
    _ = schedule(spec, runner: weighted, jobs: 1, weights: [100, 1, 1, 1, 1])
    #expect(weighted.startOrder.first == "short1")
  }

  /// With a selection (--no-deps), needs outside it count as met.
  @Test func selectionWithoutDeps() {
    let runner = FakePoller()
    let (result, _) = schedule(lanes([("a", []), ("b", ["a"])]), runner: runner, selected: [1])
    #expect(runner.startOrder == ["b"])
    #expect(result.lanes.map(\.name) == ["b"])
  }

  /// Lanes settled before the run (a missing program) skip their dependents without running.
  @Test func presetSkipsDependents() {
    let runner = FakePoller()
    let preset = [0: LaneVerdict(index: 0, name: "kotlin", outcome: .skipped, reason: "needs kotlinc, not found")]
    let (result, by) = schedule(lanes([("kotlin", []), ("after", ["kotlin"]), ("other", [])]), runner: runner, preset: preset)
    #expect(runner.startOrder == ["other"])
    #expect(by["after"]?.reason == "needs kotlin")
    #expect(result.failed.isEmpty && !result.interrupted)
  }

  /// A lane settled as passing before the run (cached) releases its dependents, each started once.
  @Test func presetPassReleasesDependentsOnce() {
    let runner = FakePoller()
    let preset = [0: LaneVerdict(index: 0, name: "build", outcome: .cached)]
    let (result, by) = schedule(lanes([("build", []), ("after", ["build"]), ("last", ["after"])]), runner: runner, preset: preset)
    #expect(runner.startOrder == ["after", "last"])
    #expect(by["build"]?.outcome == .cached)
    #expect(result.failed.isEmpty && !result.interrupted)
  }
}
