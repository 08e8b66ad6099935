import Foundation
import Testing
@testable import DuetApp
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole `verify` call (manifest, plan, cache, run, verdict, history row)
/// with the run loop on a scripted poller and clock: the lanes' outputs,
/// exits, a retry, a timeout and its kill are the script's, and every time the
/// history records is exact.
struct VerifyByHandTests {
  @Test func aWholeVerifyRunsOnAScriptedPollerAndClock() throws {
    let tree = try TemporaryFolder()
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: build
          sh: build
        - name: flaky
          sh: flaky
          retries: 1
          needs: [build]
        - name: hangs
          sh: hangs
          timeout: 30s
        - name: after
          sh: after
          needs: [hangs]
      """)
    let poller = FakePoller(script: ["flaky": [.fail, .pass], "hangs": [.timeout]], delays: ["build": 2, "flaky": 3])
    poller.behave = { name, attempt in
      switch name {
      case "build": return .init(output: "compiled 3 files\n", seconds: 2)
      case "flaky": return .init(output: "attempt \(attempt)\n", seconds: 3, exitCode: attempt == 1 ? 1 : 0)
      default: return .init(seconds: 0, hangs: true, ignoresTERM: true)
      }
    }
    let box = FakeParts(poller: poller)
    var options = VerifyOptions()
    options.jobs = 2
    var request = VerifyRequest(root: tree.url, options: options, duetVersion: "test", environment: ["PATH": "/usr/bin:/bin"])
    request.runLoop = { box.parts }
    guard case .ran(let outcome, _) = try verify(request, observer: VerifyObserver()) else {
      Issue.record("expected a run")
      return
    }
    #expect(outcome.lastLine == "duet verify: FAIL (1 timed out: hangs; 1 skipped)")
    #expect(outcome.flaky.map(\.name) == ["flaky"])
    #expect(poller.startOrder == ["build", "hangs", "flaky", "flaky"])
    #expect(poller.signals.map(\.signal) == [SIGTERM, SIGKILL])
    let store = try HistoryStore(path: try #require(HistoryStore.defaultPath(root: tree.url, environment: [:])))
    let run = try #require(try store.recentRuns(limit: 1).first)
    let steps = try store.steps(ofRuns: [run.id])
    func step(_ lane: String, _ attempt: Int) -> StepRow? { steps.first { $0.lane == lane && $0.attempt == attempt } }
    #expect(step("build", 1)?.duration == 2)
    #expect(step("flaky", 1)?.duration == 3 && step("flaky", 1)?.attemptOutcome == .fail)
    #expect(step("flaky", 2)?.duration == 3 && step("flaky", 2)?.attemptOutcome == .pass)
    #expect(step("flaky", 2).map { $0.started - step("flaky", 1)!.started } == 3)
    #expect(step("hangs", 1)?.duration == 35 && step("hangs", 1)?.attemptOutcome == .timeout)
    #expect(step("after", 1) == nil || step("after", 1)?.laneOutcome == .skipped)
    #expect(run.ended - run.started >= 35)
    let log = try String(contentsOf: tree.url.appendingPathComponent(try #require(step("build", 1)?.logPath)), encoding: .utf8)
    #expect(log == "compiled 3 files\n")
  }
}

/// Hands the scripted poller to the verify call, which makes its run loop on its own thread.
private final class FakeParts: @unchecked Sendable {
  let poller: FakePoller
  init(poller: FakePoller) { self.poller = poller }
  var parts: (poller: any ChildPoller, clock: any RunClock) { (poller, poller.clock) }
}
