import Foundation
import Testing
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole run loop driven by hand, as ninja's `BuildTest` drives its builder
/// with a fake command runner: no process, no thread, no real time. The fake
/// poller moves the fake clock to each deadline, so a 60-second timeout costs
/// nothing and every duration is exact.
@Suite("Run loop, driven by hand")
struct LaneLoopTests {
  /// At its deadline a lane's group gets SIGTERM; one that ignores it gets
  /// SIGKILL after the grace; the attempt is a timeout that lasted exactly both.
  @Test func aTimeoutStopsTheGroupThenKillsIt() {
    let poller = FakePoller()
    poller.behave = { name, _ in .init(seconds: 0, hangs: true, ignoresTERM: name == "stubborn") }
    let (result, by) = schedule(lanes([("polite", []), ("stubborn", [])]), runner: poller, killGrace: 5)
    #expect(by["polite"]?.outcome == .timeout && by["stubborn"]?.outcome == .timeout)
    #expect(poller.signals.filter { $0.name == "polite" }.map(\.signal) == [SIGTERM])
    #expect(poller.signals.filter { $0.name == "stubborn" }.map(\.signal) == [SIGTERM, SIGKILL])
    #expect(by["polite"]?.attempts.first?.duration == 60)
    #expect(by["stubborn"]?.attempts.first?.duration == 65)
    #expect(by["stubborn"]?.attempts.first?.signal == SIGKILL)
    #expect(by["polite"]?.attempts.first?.tail.lastLines == ["duet: timed out after 1m; stopping the lane"])
    #expect(result.failed.map(\.name) == ["polite", "stubborn"])
  }

  /// A lane that exited while a grandchild outside its group holds the pipe
  /// ends after the drain grace, with what it printed kept.
  @Test func aHeldPipeIsDroppedAfterTheDrainGrace() {
    let poller = FakePoller()
    poller.behave = { _, _ in .init(output: "built\n", seconds: 1, holdsPipe: true) }
    let (_, by) = schedule(lanes([("daemonises", [])]), runner: poller)
    let attempt = by["daemonises"]?.attempts.first
    #expect(by["daemonises"]?.outcome == .pass)
    #expect(attempt?.duration == 1 + LaneLoop.drainGrace)
    #expect(attempt?.tail.lastLines == ["built"])
  }

  /// Ctrl-C in the middle of a run (the stop latch, as a signal trips it):
  /// running lanes get SIGTERM and end interrupted; nothing else starts.
  @Test func aSignalMidRunStopsWhatRunsAndCancelsTheRest() {
    let poller = FakePoller(delays: ["a": 10, "b": 10, "c": 1])
    poller.onWait = { poller, wait in if wait == 1 { poller.tripStop() } }
    let (result, by) = schedule(lanes([("a", []), ("b", []), ("c", ["a"])]), runner: poller, jobs: 2)
    #expect(result.interrupted)
    #expect(by["a"]?.outcome == .interrupted && by["b"]?.outcome == .interrupted)
    #expect(by["c"]?.outcome == .cancelled)
    #expect(poller.startOrder == ["a", "b"])
    #expect(poller.signals.map(\.signal) == [SIGTERM, SIGTERM])
  }

  /// A lane that cannot start fails with the shell's 127 and says why, and its dependents are skipped.
  @Test func aLaneThatCannotStartFails() {
    let poller = FakePoller()
    poller.spawnFailures = ["a"]
    let (_, by) = schedule(lanes([("a", []), ("b", ["a"])]), runner: poller)
    let attempt = by["a"]?.attempts.first
    #expect(by["a"]?.outcome == .fail)
    #expect(attempt?.exitCode == 127)
    #expect(attempt?.note?.hasPrefix("cannot start /bin/sh") == true)
    #expect(by["b"]?.outcome == .skipped)
  }

  /// Retries start at once, on the same loop turn, each attempt timed from its
  /// own start; events come in the order a printer needs.
  @Test func retriesAndEventsInOrder() {
    let poller = FakePoller(script: ["a": [.fail, .fail, .pass]], delays: ["a": 3])
    var events: [String] = []
    let (_, by) = schedule(lanes([("a", [])], retries: ["a": 2]), runner: poller, events: { event in
      switch event {
      case .started(_, let name, let attempt): events.append("start \(name) \(attempt)")
      case .retrying(_, let name, let failed): events.append("retry \(name) after \(failed.attempt)")
      case .finished(let record, let count, let total): events.append("finished \(record.name) \(record.outcome) \(count)/\(total)")
      }
    })
    #expect(events == ["start a 1", "retry a after 1", "start a 2", "retry a after 2", "start a 3", "finished a flaky 1/1"])
    #expect(by["a"]?.attempts.map(\.duration) == [3, 3, 3])
    let starts = by["a"]?.attempts.map(\.started) ?? []
    #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 == 3 })
  }

  /// --fail-fast with lanes running: the failure starts nothing more, the lane
  /// still running finishes on its own, and what never started is cancelled.
  @Test func failFastLetsRunningLanesFinish() {
    let poller = FakePoller(script: ["a": [.fail]], delays: ["a": 1, "b": 5, "c": 1])
    let (result, by) = schedule(lanes([("a", []), ("b", []), ("c", [])]), runner: poller, jobs: 2, failFast: true)
    #expect(by["a"]?.outcome == .fail && by["b"]?.outcome == .pass && by["c"]?.outcome == .cancelled)
    #expect(poller.startOrder == ["a", "b"])
    #expect(poller.signals.isEmpty)
    #expect(result.duration == 5)
  }
}
