import Foundation
import Testing
@testable import DuetFuzzSupport

/// The cache and the run under a hostile review: no pass is served from the
/// cache when something it did not see could make the lane fail, and one lane
/// cannot starve the others.
@Suite("Cache and run hardening, end to end")
struct CacheTrustCLITests {
  /// A lane printing megabytes does not starve another lane: its error line is in
  /// its log, and a third lane's one-second timeout still fires in seconds.
  @Test func floodingLaneStarvesNoOne() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: flood
          sh: yes | head -c 20000000
        - name: quick
          # A sleep that is the point: the error line comes while the flood runs.
          sh: 'echo first; sleep 0.3; echo "quick: error: something broke"; exit 1'
        - name: slow
          # A sleep that is the point: the lane outlasts its timeout.
          sh: sleep 100
          timeout: 1s
      """)
    let run = try tree.duet("verify", "--jobs", "3")
    #expect(run.status == 1)
    #expect(run.stdout.contains("   quick: error: something broke"), "\(run.stdout)")
    // Its deadline fired while the flood ran (a starved loop would have let
    // `sleep 100` end and pass); no wall-clock bound, which a loaded machine breaks.
    #expect(run.stdout.contains("✗ slow"))
    #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix("slow") && $0.contains("timeout") }, "\(run.stdout)")
    let logs = try FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(".duet/logs").path)
    #expect(try tree.read(".duet/logs/\(logs[0])/quick.log") == "first\nquick: error: something broke\n")
  }

  /// A --strict run whose lane changed a tracked file leaves no pass to reuse:
  /// with the tree restored, the next --strict run runs the lane again and fails again.
  @Test func strictFailureIsNotCached() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: gen
          sh: echo v2 > gen.txt
          inputs: ["src/*.txt"]
      """)
    try tree.write("src/a.txt", "a\n")
    try tree.write("gen.txt", "v1\n")
    try CIGit.commitAll(tree)
    #expect(try tree.duet("verify", "--strict").status == 1)
    try CIGit.run(["checkout", "-q", "gen.txt"], in: tree.url)
    let again = try tree.duet("verify", "--strict")
    #expect(again.status == 1, "\(again.stdout)")
    #expect(!again.stdout.contains("cached"))
  }

  /// A lane that reads DUET_CHANGED_FILES checked only the change under --since:
  /// that pass does not serve a full run, which checks everything and fails.
  @Test func partialPassDoesNotServeAFullRun() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: lint
          sh: 'if [ -n "$DUET_CHANGED_FILES" ]; then files=$(grep "^src/" "$DUET_CHANGED_FILES"); else files=$(ls src/*); fi; for f in $files; do if grep -q BAD "$f"; then echo "$f: error: BAD"; exit 1; fi; done'
          inputs: ["src/**"]
      """)
    try tree.write("src/old.txt", "BAD\n")
    try tree.write(".gitignore", ".duet/\n")
    try CIGit.commitAll(tree)
    try tree.write("src/new.txt", "fine\n")
    #expect(try tree.duet("verify", "--since", "HEAD").status == 0)
    let full = try tree.duet("verify")
    #expect(full.status == 1, "\(full.stdout)")
    #expect(full.stdout.contains("src/old.txt: error: BAD"))
  }

  /// A relative `requires:` path is found from the lane's folder, whatever folder duet runs in.
  @Test func relativeRequiresDoNotDependOnTheWorkingFolder() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: lint
          sh: ./tools/lint
          requires: [./tools/lint]
      """)
    try tree.write("tools/lint", "#!/bin/sh\nexit 1\n")
    chmod(tree.url.appendingPathComponent("tools/lint").path, 0o755)
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
    let fromRoot = try tree.duet("verify", "--no-cache")
    let fromBelow = try runDuet(["verify", "--no-cache"], in: tree.url.appendingPathComponent("deep/er"))
    #expect(fromRoot.status == 1 && fromBelow.status == 1, "\(fromBelow.stdout)")
  }

  /// Inputs that match no file never make a lane cached (a folder given for a glob),
  /// and losing an input's executable bit is a change.
  @Test func emptyInputsAndExecutableBit() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: folder
          sh: "true"
          inputs: [src]
        - name: script
          sh: ./check.sh
          inputs: [check.sh]
      """)
    try tree.write("src/a.txt", "a\n")
    try tree.write("check.sh", "#!/bin/sh\nexit 0\n")
    chmod(tree.url.appendingPathComponent("check.sh").path, 0o755)
    #expect(try tree.duet("verify").status == 0)
    chmod(tree.url.appendingPathComponent("check.sh").path, 0o644)
    let dry = try tree.duet("verify", "--dry-run")
    #expect(dry.stdout.contains("folder  runs  its inputs match no file (src)"), "\(dry.stdout)")
    #expect(dry.stdout.contains("script  runs  inputs changed (check.sh)"), "\(dry.stdout)")
    #expect(try tree.duet("verify").status == 1)
  }

  /// Under --since, a lane whose need is unaffected can still be served from the cache.
  @Test func unaffectedNeedKeepsTheCache() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: x
          sh: "true"
          inputs: ["a/**"]
        - name: y
          sh: "true"
          needs: [x]
          inputs: ["b/**"]
      """)
    try tree.write("a/1", "a\n")
    try tree.write("b/1", "b\n")
    try tree.write(".gitignore", ".duet/\n")
    try CIGit.commitAll(tree)
    try tree.write("b/1", "changed\n")
    #expect(try tree.duet("verify").status == 0)
    let since = try tree.duet("verify", "--since", "HEAD")
    #expect(since.stdout.contains("✓ y cached"), "\(since.stdout)")
    #expect(since.stdout.contains("- x unaffected"))
  }

  /// --dry-run --fail-fast shows what the run would cancel after a lane already failed.
  @Test func dryRunAgreesWithFailFast() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: broken
          sh: "true"
          dir: missing-folder
        - name: other
          sh: "true"
      """)
    let dry = try tree.duet("verify", "--dry-run", "--fail-fast")
    #expect(dry.stdout.contains("other   cancelled  not started: --fail-fast after broken failed"), "\(dry.stdout)")
  }

  /// Ctrl-C while the run is prepared (a git that hangs) ends duet at once,
  /// with every lane shown cancelled.
  @Test func interruptWhilePreparing() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: a\n    sh: echo a\n")
    // The stand-in git says it started, so Ctrl-C comes while it hangs (not
    // before duet's handler is in place, on a machine too busy to start it in a second).
    // A sleep that is the point: a git that hangs until it is stopped.
    try tree.write("bin/git", "#!/bin/sh\ntouch \"$0.started\"\nsleep 100\n")
    chmod(tree.url.appendingPathComponent("bin/git").path, 0o755)
    try tree.write(".git/HEAD", "ref: refs/heads/main\n")
    let start = Date()
    let started = tree.url.appendingPathComponent("bin/git.started").path
    let run = try runBinary(["verify"], in: tree.url, environment: ["PATH": tree.url.appendingPathComponent("bin").path + ":/usr/bin:/bin"]) { process in
      #expect(eventually { FileManager.default.fileExists(atPath: started) }, "the stand-in git never started")
      kill(process.processIdentifier, SIGINT)
    }
    #expect(run.status == 130)
    #expect(Date().timeIntervalSince(start) < 20)
    #expect(run.stdout.contains("a cancelled"), "\(run.stdout)")
  }
}
