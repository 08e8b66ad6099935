import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#endif

/// The one child-process path: deadlines, group kills, bounded capture, git by argv.
@Suite("Child processes")
struct ChildRunTests {
  /// A child that never answers cannot hang a verify: it is stopped at its deadline.
  @Test func deadlineStopsAHangingQuery() {
    let start = Date()
    let captured = ChildRun.captureShell("sleep 30", directory: "/", environment: [:], limits: .init(timeout: 0.5, killGrace: 1), keep: 0)
    #expect(captured.end.timedOut && !captured.end.succeeded)
    #expect(Date().timeIntervalSince(start) < 10)
  }

  /// Git gets its arguments as argv: a ref with shell syntax in it is a word to
  /// git, never a command (`sh -c` would have run the `touch`), and git's stderr
  /// does not reach the output a caller parses.
  @Test func gitArgumentsAreNeverShellText() throws {
    let folder = try TemporaryFolder()
    #expect(ProcessOutput.git(["init", "-q"], in: folder.url, environment: testEnvironment) != nil)
    #expect(!ProcessOutput.isCommit("x; touch injected", in: folder.url, environment: testEnvironment))
    #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("injected").path))
    // `checkout -b` says "Switched to a new branch" on stderr, and succeeds.
    #expect(ProcessOutput.git(["checkout", "-b", "feature"], in: folder.url, environment: testEnvironment) == "")
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

  /// Ctrl-C that arrives before the run starts is kept: the run starts nothing and ends interrupted.
  @Test func interruptBeforeTheRunStarts() {
    let interruption = StopRequest()
    interruption.request()
    let runner = FakePoller()
    let (result, _) = schedule(lanes([("a", []), ("b", ["a"])]), runner: runner, interruption: interruption)
    #expect(result.interrupted)
    #expect(runner.startOrder.isEmpty)
    #expect(result.lanes.map(\.outcome) == [.cancelled, .cancelled])
  }
}
