import Foundation
import Testing
@testable import DuetFuzzSupport

@Suite("duet verify, end to end")
struct VerifyCLITests {
  /// A tree whose lanes all pass ends with PASS and exit 0, a line per lane, and `.duet/.gitignore`.
  @Test func passingTree() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: one
          sh: echo one > one.txt
        - name: two
          sh: test -f one.txt
          needs: [one]
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 0)
    #expect(run.lines.contains("[1/2] ✓ one " + run.lines[0].split(separator: " ").last!))
    #expect(run.stdout.contains("] ✓ two "))
    #expect(run.lines.last(where: { !$0.isEmpty }) == "duet verify: PASS (2 passed)")
    #expect(try tree.read(".duet/.gitignore") == "*\n")
  }

  /// A failing lane fails the run with exit 1, skips its dependents and shows its log's error lines first.
  @Test func failingTree() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: kotlin
          sh: 'echo compiling; echo "Main.kt:3:1: error: unresolved"; for i in $(seq 1 50); do echo noise $i; done; exit 4'
        - name: after
          sh: echo never
          needs: [kotlin]
        - name: other
          sh: echo fine
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 1)
    #expect(run.stdout.contains("✗ kotlin"))
    #expect(run.stdout.contains("(exit 4)"))
    #expect(run.stdout.contains("- after skipped (needs kotlin)"))
    #expect(run.stdout.contains("✓ other"))
    let lines = run.lines
    let heading = try #require(lines.firstIndex { $0.hasPrefix("── kotlin: exit 4") })
    #expect(lines[heading + 1] == "   Main.kt:3:1: error: unresolved")
    #expect(lines.contains("   noise 50"))
    #expect(!lines.contains("   noise 20"))
    #expect(lines.last(where: { !$0.isEmpty }) == "duet verify: FAIL (1 failed: kotlin; 1 skipped)")
    let logs = try FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(".duet/logs").path)
    #expect(logs.count == 1)
    let log = try tree.read(".duet/logs/\(logs[0])/kotlin.log")
    #expect(log.contains("noise 1\n"))
    #expect(!tree.exists(".duet/logs/\(logs[0])/after.log"))
  }

  /// A timeout stops the lane's whole process group: a grandchild `sleep` dies too.
  @Test func timeoutKillsGrandchildren() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: slow
          # A sleep that is the point: the grandchild outlasts the lane's timeout.
          sh: sh -c 'sleep 120 & echo $! > grandchild.pid; wait'
          timeout: 1s
      """)
    let start = Date()
    let run = try tree.duet("verify")
    #expect(run.status == 1)
    #expect(Date().timeIntervalSince(start) < 20)
    #expect(run.stdout.contains("(timeout)"))
    #expect(run.stdout.contains("duet verify: FAIL (1 timed out: slow)"))
    let pid = try #require(Int32(tree.read("grandchild.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(eventually { !processIsAlive(pid) }, "pid \(pid) outlived the lane")
  }

  /// SIGINT to duet stops every lane, prints what finished, exits 130 and leaves no process behind.
  @Test func interruptExits130() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: quick
          sh: echo quick
        - name: long
          # A sleep that is the point: the lane runs until the test interrupts the run.
          sh: sh -c 'sleep 120 & echo $! > long.pid; wait'
        - name: later
          sh: echo later
          needs: [long]
      """)
    let run = try runBinary(["verify", "--jobs", "2"], in: tree.url) { process, stdout in
      // Wait for the grandchild to exist and quick to have passed, then interrupt duet.
      #expect(eventually { pidWritten(tree.url.appendingPathComponent("long.pid").path) }, "the lane never started")
      #expect(eventually { stdout().contains("✓ quick") }, "quick never passed: \(stdout())")
      kill(process.processIdentifier, SIGINT)
    }
    #expect(run.status == 130)
    #expect(run.stdout.contains("✓ quick"))
    #expect(run.stdout.contains("duet verify: INTERRUPTED"))
    #expect(run.stdout.contains("later") && run.stdout.contains("cancelled"))
    let pid = try #require(Int32(tree.read("long.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(eventually { !processIsAlive(pid) }, "pid \(pid) outlived duet")
  }

  /// Retries: a lane that fails once then passes is flaky, named above an unchanged PASS.
  @Test func flakyLanePasses() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: wobbly
          sh: test -f seen || { touch seen; exit 1; }
          retries: 1
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 0)
    let tail = run.lines.filter { !$0.isEmpty }.suffix(2)
    #expect(Array(tail) == ["flaky: wobbly (passed on attempt 2)", "duet verify: PASS (1 flaky)"])
  }

  /// A lane whose `requires:` program is missing is skipped, and fails under --strict.
  @Test func requiresAndStrict() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: kotlin
          sh: no-such-compiler-xyz -version
          requires: [no-such-compiler-xyz]
      """)
    let relaxed = try tree.duet("verify")
    #expect(relaxed.status == 0)
    #expect(relaxed.stdout.contains("kotlin skipped (needs no-such-compiler-xyz, not found)"))
    let strict = try tree.duet("verify", "--strict")
    #expect(strict.status == 1)
    #expect(strict.stdout.contains("duet verify: FAIL (1 failed: kotlin)"))
  }

  /// `--lane` runs a lane with its needs; `--no-deps` runs it alone; an unknown lane is a usage error.
  @Test func laneSelection() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: a, sh: touch a.ran}
        - {name: b, sh: touch b.ran, needs: [a]}
        - {name: c, sh: touch c.ran}
      """)
    let withDeps = try tree.duet("verify", "--lane", "b")
    #expect(withDeps.status == 0)
    #expect(tree.exists("a.ran") && tree.exists("b.ran") && !tree.exists("c.ran"))
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("a.ran"))
    let alone = try tree.duet("verify", "--lane", "b", "--no-deps")
    #expect(alone.status == 0)
    #expect(!tree.exists("a.ran"))
    let unknown = try tree.duet("verify", "--lane", "bb")
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("--lane: no lane 'bb' in lanes/manifest.yaml; did you mean 'b'? (its lanes: a, b, c)"))
  }

  /// `--dry-run` prints the start order and runs nothing.
  @Test func dryRun() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: short, sh: touch ran}
        - {name: first, sh: touch ran}
        - {name: second, sh: touch ran, needs: [first]}
      """)
    let run = try tree.duet("verify", "--dry-run", "--jobs", "2")
    #expect(run.status == 0)
    #expect(run.lines[0] == "duet verify --dry-run: 3 lane(s), 3 would run, 0 cached, at most 2 at once; in start order:")
    #expect(run.lines[1].hasSuffix("runs  no inputs declared"))
    #expect(run.lines[1].hasPrefix("  1.  first"))
    #expect(run.lines[3].hasPrefix("  3.  second"))
    #expect(!tree.exists("ran"))
  }

  /// Lane options reach the shell: `env:` merged in, `dir:` as the working folder, stdin empty.
  @Test func environmentAndDirectory() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: where
          sh: 'pwd > ../where.txt; echo "$GREETING" >> ../where.txt; cat >> ../where.txt'
          dir: sub
          env: {GREETING: hello}
      """)
    try tree.write("sub/.keep", "")
    let run = try tree.duet("verify")
    #expect(run.status == 0)
    #expect(try tree.read("where.txt") == tree.url.appendingPathComponent("sub").path + "\nhello\n")
  }

  /// A lane that prints far more than the pipe buffer neither deadlocks nor grows duet.
  @Test func chattyLane() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: chatty
          sh: head -c 20000000 /dev/zero | tr '\\0' 'x' | fold -w 100
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 0)
    let logs = try FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(".duet/logs").path)
    let size = try FileManager.default.attributesOfItem(atPath: tree.url.appendingPathComponent(".duet/logs/\(logs[0])/chatty.log").path)[.size] as? Int
    #expect(size == 20_199_999) // 200,000 lines of 100; fold adds no final newline
  }

  /// `--stream LANE` prints that lane's lines live, prefixed by its name.
  @Test func streamsOneLane() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: loud, sh: 'echo first; echo second'}
        - {name: quiet, sh: echo hidden}
      """)
    let run = try tree.duet("verify", "--stream", "loud")
    #expect(run.lines.contains("loud | first"))
    #expect(run.lines.contains("loud | second"))
    #expect(!run.stdout.contains("hidden"))
  }

  /// With `--json`, the streamed lines go to stderr, as the notices do: a
  /// lane printing a JSON report of its own (`{"outcome":"pass"}`) cannot
  /// put it in the report a script reads from stdout.
  @Test func streamedLinesStayOutOfTheJSONReport() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: loud, sh: 'echo "{\\"outcome\\":\\"pass\\"}"; exit 1'}
      """)
    let run = try tree.duet("verify", "--stream", "loud", "--json")
    #expect(run.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    #expect(object["outcome"] as? String == "fail")
    #expect(run.stderr.contains("loud | {\"outcome\":\"pass\"}"), "\(run.stderr)")
  }

  /// `--json` prints the whole run with schemaVersion 2.
  @Test func jsonReport() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'exit 3'}\n")
    let run = try tree.duet("verify", "--json")
    #expect(run.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 2)
    #expect(object["outcome"] as? String == "fail")
    let lanes = try #require(object["lanes"] as? [[String: Any]])
    let attempts = try #require(lanes.first?["attempts"] as? [[String: Any]])
    #expect(attempts.first?["exitCode"] as? Int == 3)
  }

  /// Hundreds of short lanes whose pipes are opened and closed back to back all finish
  /// (libdispatch read sources crashed on such reused descriptors; the poll thread must not).
  @Test func manyShortLanes() throws {
    var manifest = "version: 1\nlanes:\n"
    for i in 0..<400 {
      manifest += "  - {name: l\(i), sh: \(i % 3 == 0 ? "'echo out \(i)'" : "true")\(i >= 20 ? ", needs: [l\(i - 20)]" : "")}\n"
    }
    let tree = try FixtureTree(manifest: manifest)
    let run = try tree.duet("verify", "--jobs", "4")
    #expect(run.status == 0)
    #expect(run.lines.filter { $0.contains("] ✓ l") }.count == 400)
    #expect(run.lines.last(where: { !$0.isEmpty }) == "duet verify: PASS (400 passed)")
  }

  /// `--timeout` changes the default timeout; a lane's own `timeout` still wins.
  @Test func defaultTimeoutOption() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        # A sleep that is the point: one lane outlasts the default timeout, the other only the default.
        - {name: slow, sh: sleep 30}
        - {name: patient, sh: sleep 1.5, timeout: 1m}
      """)
    let start = Date()
    let run = try tree.duet("verify", "--timeout", "1s")
    #expect(run.status == 1)
    #expect(Date().timeIntervalSince(start) < 15)
    #expect(run.stdout.contains("✗ slow"))
    #expect(run.stdout.contains("✓ patient"))
    #expect(run.stdout.contains("duet verify: FAIL (1 timed out: slow)"))
  }

  /// `--fail-fast` starts nothing after the first failure; the rest are cancelled.
  @Test func failFastEndToEnd() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: first, sh: 'exit 1'}
        - {name: second, sh: touch second.ran}
      """)
    let run = try tree.duet("verify", "--fail-fast", "--jobs", "1")
    #expect(run.status == 1)
    #expect(run.stdout.contains("second cancelled (not started: --fail-fast after first failed)"))
    #expect(!tree.exists("second.ran"))
  }
}
