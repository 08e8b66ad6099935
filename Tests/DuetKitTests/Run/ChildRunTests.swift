import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#endif

/// The one child-process path: deadlines, group kills, bounded capture, and
/// pipes known by owner tokens rather than descriptor numbers.
@Suite("Child processes")
struct ChildRunTests {
  /// A `git` that never answers cannot hang a verify: the query is stopped at its deadline.
  @Test func deadlineStopsAHangingQuery() {
    let start = Date()
    let data = ProcessOutput.shell("sleep 30", in: URL(fileURLWithPath: "/"), deadline: 0.5)
    #expect(data == nil)
    #expect(Date().timeIntervalSince(start) < 10)
  }

  /// A grandchild that leaves the process group (`setsid`) and keeps the pipe open
  /// does not keep duet reading: the capture ends soon after the child itself exits.
  @Test func escapedGrandchildDoesNotHoldTheCapture() throws {
    let folder = try TemporaryFolder()
    let start = Date()
    let captured = ChildRun.captureShell("setsid sh -c 'sleep 20' & echo done", directory: folder.url.path,
                                         environment: ProcessInfo.processInfo.environment,
                                         limits: .init(timeout: 60, killGrace: 1, drainGrace: 0.5), keep: 1024)
    #expect(captured.end.exitCode == 0)
    #expect(captured.text.contains("done"))
    #expect(Date().timeIntervalSince(start) < 10)
  }

  /// Output is kept bounded: the last bytes, however much the child prints.
  @Test func captureIsBounded() {
    let captured = ChildRun.captureShell("head -c 3000000 /dev/zero | tr '\\0' a; echo END", directory: "/",
                                         environment: ProcessInfo.processInfo.environment, limits: .init(timeout: 30), keep: 100)
    #expect(captured.output.count == 100)
    #expect(captured.text.hasSuffix("END\n"))
  }

  /// A program that cannot start is reported, not trapped on.
  @Test func spawnFailureIsReported() {
    let captured = ChildRun.capture(path: "/nonexistent/tool", arguments: ["/nonexistent/tool"], directory: "/",
                                    environment: [:], limits: .init(timeout: 5), keep: 100)
    #expect(captured.end.spawnError != nil)
    #expect(!captured.end.succeeded)
  }

  /// Dropping a pipe by its owner's token never reaches a newer pipe that reused
  /// the same descriptor number (the old pump dropped by number and lost the new lane's output).
  @Test func lateDropCannotReachAReusedDescriptor() throws {
    func pipePair() -> (Int32, Int32) {
      var fds: [Int32] = [-1, -1]
      _ = pipe(&fds)
      _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
      return (fds[0], fds[1])
    }
    /// One try; nil when another test took the freed number first (tests share the process).
    func attempt() -> [UInt8]? {
      let firstClosed = DispatchSemaphore(value: 0)
      let (firstRead, firstWrite) = pipePair()
      let first = OutputPump.shared.add(firstRead, .init(onBytes: { _ in }, onClose: { firstClosed.signal() }))
      close(firstWrite)
      firstClosed.wait()
      let (secondRead, secondWrite) = pipePair()
      guard secondRead == firstRead else {
        close(secondRead)
        close(secondWrite)
        return nil
      }
      let received = Locked([UInt8]())
      let secondClosed = DispatchSemaphore(value: 0)
      _ = OutputPump.shared.add(secondRead, .init(onBytes: { bytes in received.withLock { $0 += bytes } }, onClose: { secondClosed.signal() }))
      OutputPump.shared.drop(first)
      Thread.sleep(forTimeInterval: 0.1)
      let message: [UInt8] = Array("still here\n".utf8)
      _ = message.withUnsafeBytes { write(secondWrite, $0.baseAddress, $0.count) }
      close(secondWrite)
      secondClosed.wait()
      return received.current
    }
    for _ in 0..<50 {
      guard let received = attempt() else { continue }
      #expect(received == Array("still here\n".utf8))
      return
    }
    Issue.record("the descriptor number was never reused in 50 tries; the scenario did not run")
  }

  /// Ctrl-C that arrives before the run starts is kept: the run starts nothing and ends interrupted.
  @Test func interruptBeforeTheRunStarts() {
    let interruption = RunInterruption()
    interruption.interrupt()
    let graph = LaneGraph(names: ["a", "b"], needs: [[], ["a"]])
    let runner = FakeStepRunner()
    let scheduler = Scheduler(plan: RunPlan(.init(graph: graph, jobs: 2)), names: graph.names, runner: runner)
    interruption.attach(scheduler)
    let laneList = lanes([("a", []), ("b", ["a"])])
    let result = scheduler.run(makeRequest: { index, attempt in
      StepRequest(index: index, lane: laneList[index], attempt: attempt, timeout: 60, workingDirectory: URL(fileURLWithPath: "/"),
                  logURL: URL(fileURLWithPath: "/dev/null"), logPath: "x", environment: [:])
    }, onEvent: { _ in })
    #expect(result.interrupted)
    #expect(runner.startOrder.isEmpty)
    #expect(result.records.map(\.outcome) == [.cancelled, .cancelled])
  }
}
