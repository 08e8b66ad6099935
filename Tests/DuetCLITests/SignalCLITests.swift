import Foundation
import Testing
@testable import DuetFuzzSupport
@testable import DuetSupport

/// One signal policy: SIGINT, SIGTERM, SIGHUP and SIGQUIT stop every child's
/// process group before duet exits, with no crash report.
@Suite("Signals, end to end")
struct SignalCLITests {
  static let longLane = """
    version: 1
    lanes:
      - name: long
        # A sleep that is the point: the lane runs until the test signals duet.
        sh: sh -c 'sleep 120 & echo $! > long.pid; wait'
    """

  /// Runs verify, sends `signal` once the lane's grandchild exists, and returns the run and the grandchild's pid.
  func interruptVerify(with signal: Int32) throws -> (DuetRun, Int32) {
    let tree = try FixtureTree(manifest: SignalCLITests.longLane)
    let run = try runBinary(["verify"], in: tree.url) { process in
      #expect(eventually { pidWritten(tree.url.appendingPathComponent("long.pid").path) }, "the lane never started")
      kill(process.processIdentifier, signal)
    }
    let pid = try #require(Int32(tree.read("long.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
    return (run, pid)
  }

  /// SIGHUP (a closed terminal) stops the lanes instead of orphaning them, and the run ends interrupted.
  @Test func hangupStopsLanes() throws {
    let (run, pid) = try interruptVerify(with: SIGHUP)
    #expect(run.status == 130)
    #expect(run.stdout.contains("duet verify: INTERRUPTED"))
    #expect(eventually { !processIsAlive(pid) }, "pid \(pid) outlived duet")
  }

  /// SIGQUIT behaves as SIGTERM: lanes stopped, exit 130, no crash report.
  @Test func quitIsNotACrash() throws {
    let (run, pid) = try interruptVerify(with: SIGQUIT)
    #expect(run.status == 130)
    #expect(!run.stderr.contains("Stack dump") && !run.stderr.contains("Crash"))
    #expect(eventually { !processIsAlive(pid) }, "pid \(pid) outlived duet")
  }

  /// SIGTERM to `duet mocks` while its generator runs stops the generator's group and exits 128 + 15.
  @Test func mocksGeneratorIsStopped() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      mocks:
        - output: Tests/Mocks/Mocks.swift
          sources: [Sources]
          # A sleep that is the point: the generator runs until the test signals duet.
          generator: sh -c 'sleep 120 & echo $! > gen.pid; wait'
      lanes:
        - name: mocks
          run: mocks --check
      """)
    try tree.write("Sources/A.swift", "struct A {}\n")
    let run = try runBinary(["mocks"], in: tree.url) { process in
      #expect(eventually { pidWritten(tree.url.appendingPathComponent("gen.pid").path) }, "the generator never started")
      kill(process.processIdentifier, SIGTERM)
    }
    #expect(run.status == 128 + SIGTERM, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("duet: SIGTERM: stopping 1 child process group(s)"))
    let pid = try #require(Int32(tree.read("gen.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(eventually { !processIsAlive(pid) }, "pid \(pid) outlived duet")
    #expect(!tree.exists("Tests/Mocks/Mocks.swift"))
  }
}

#if os(Linux)
/// Issue 52, item 5: a run busy outside its event loop (here hashing a 20 GB
/// sparse input before any lane started) ends about 2 s after SIGTERM, its
/// lane groups killed; it hashed on for its whole input before (tens of
/// seconds). A run whose loop hears the signal still stops its lanes in its
/// own time (the suite above).
@Suite("A signal ends a run that is busy elsewhere")
struct SignalWhileBusyCLITests {
  /// Bytes `pid` has read so far (`/proc/PID/io`'s rchar).
  func bytesRead(_ pid: Int32) -> Int {
    let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
    let line = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }
    return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
  }

  @Test func sigtermWhileHashingAnInputEndsWithinSeconds() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\", inputs: [big.img]}\n")
    let image = tree.url.appendingPathComponent("big.img").path
    #expect(FileManager.default.createFile(atPath: image, contents: nil) && truncate(image, 20 << 30) == 0, "cannot make a sparse file")
    var signalled = Date()
    let run = try runBinary(["verify"], in: tree.url) { process in
      #expect(eventually { bytesRead(process.processIdentifier) > 64 << 20 }, "duet never started hashing")
      signalled = Date()
      kill(process.processIdentifier, SIGTERM)
    }
    let took = Date().timeIntervalSince(signalled)
    #expect(run.status == 128 + SIGTERM, "\(run.stdout)\(run.stderr)")
    #expect(took < 8, "duet ended \(took) s after SIGTERM")
    #expect(run.stderr.contains("duet: SIGTERM: its run did not take the signal within 2 s"), "\(run.stderr)")
  }
}
#endif

/// Descendants that escape a lane's process group are stopped when the run ends (Linux).
@Suite("Escaped descendants")
struct EscapedDescendantTests {
  #if os(Linux)
  static let linux = true
  #else
  static let linux = false
  #endif

  /// Issue 39, item 13: a lane stopped at its timeout, whose own process is
  /// still on its way out when the run ends, did not leave anything running
  /// outside its group: twenty runs, never that message. (The hostile test saw
  /// it in 9 of 40 runs; here the old binary gave it in none of 20, so this
  /// guards the rule, a process still in a lane's group is not "outside" it,
  /// rather than reproducing the race.)
  @Test(.enabled(if: linux, "duet adopts escaped descendants only on Linux (PR_SET_CHILD_SUBREAPER)"))
  func aTimedOutLaneLeavesNothingOutsideItsGroup() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        # A sleep that is the point: both lanes outlast their timeouts.
        - {name: slow, sh: "sleep 9", timeout: 1s}
        - {name: slower, sh: "sleep 9 & sleep 9", timeout: 1s}
      """)
    for round in 0..<20 {
      let run = try tree.binary("verify")
      #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
      #expect(!run.stderr.contains("outside their process groups"), "round \(round): \(run.stderr)")
    }
  }

  /// A `setsid` grandchild is re-parented to duet and killed at the end of the run.
  @Test(.enabled(if: linux, "duet adopts escaped descendants only on Linux (PR_SET_CHILD_SUBREAPER)"))
  func setsidGrandchildDiesWithTheRun() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: daemon
          # A sleep that is the point: the daemon outlives the lane; the lane waits for its pid, not for a time.
          sh: setsid sh -c 'echo $$ > daemon.pid.new && mv daemon.pid.new daemon.pid; exec sleep 120' > /dev/null 2>&1 < /dev/null & while [ ! -e daemon.pid ]; do sleep 0.01; done
      """)
    let run = try tree.binary("verify")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("stopped 1 process(es) that lanes left running outside their process groups"), "\(run.stderr)")
    let pid = try #require(Int32(tree.read("daemon.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(!processIsAlive(pid))
  }
}
