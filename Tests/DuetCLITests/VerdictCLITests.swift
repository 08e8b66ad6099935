import Foundation
import Testing

/// The verdict of `duet verify` as a user meets it: a cached lane never runs, the
/// history agrees with the exit code, and the last line says what did not run.
@Suite("duet verify: one verdict, end to end")
struct VerdictCLITests {
  /// A lane shown `cached` never runs: a dependent whose command now fails but whose
  /// inputs are unchanged stays cached and its command is not started (its marker does not grow).
  @Test func cachedDependentNeverRuns() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: x
          sh: echo x >> x.marker
          inputs: [x.txt]
        - name: y
          sh: 'echo y >> y.marker; test ! -f fail-now'
          needs: [x]
          inputs: [y.txt]
      """)
    try tree.write("x.txt", "x\n")
    try tree.write("y.txt", "y\n")
    let first = try tree.duet("verify")
    #expect(first.status == 0)
    #expect(try tree.read("y.marker") == "y\n")
    // y's command would now fail, through a file its inputs do not name.
    try tree.write("fail-now", "")
    let second = try tree.duet("verify")
    #expect(second.status == 0)
    #expect(second.stdout.contains("✓ x cached"))
    #expect(second.stdout.contains("✓ y cached"))
    #expect(try tree.read("x.marker") == "x\n")
    #expect(try tree.read("y.marker") == "y\n")
    #expect(second.lines.last(where: { !$0.isEmpty }) == "duet verify: PASS (2 cached)")
  }

  /// A lane whose command fails while a need of it is cached runs and fails the run:
  /// cached needs release their dependents, and a dependent that is not cached starts.
  @Test func dependentOfCachedLaneRunsWhenItsInputsChange() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: x
          sh: echo x >> x.marker
          inputs: [x.txt]
        - name: y
          sh: 'echo y >> y.marker; test "$(cat y.txt)" = good'
          needs: [x]
          inputs: [y.txt]
      """)
    try tree.write("x.txt", "x\n")
    try tree.write("y.txt", "good\n")
    #expect(try tree.duet("verify").status == 0)
    try tree.write("y.txt", "bad\n")
    let second = try tree.duet("verify")
    #expect(second.status == 1)
    #expect(second.stdout.contains("✓ x cached"))
    #expect(second.lines.last(where: { !$0.isEmpty }) == "duet verify: FAIL (1 failed: y)")
    #expect(try tree.read("y.marker") == "y\ny\n")
  }

  /// `--strict` with a lane that edits a tracked file exits 1, and the history records the run as `fail`.
  @Test func strictFailureIsRecordedAsFail() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: writer
          sh: echo more >> tracked.txt
      """)
    try tree.write("tracked.txt", "base\n")
    try CIGit.commitAll(tree)
    let run = try tree.duet("verify", "--strict")
    #expect(run.status == 1)
    let history = try tree.duet("history", "--json")
    #expect(history.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any]
    let runs = object?["runs"] as? [[String: Any]]
    #expect(runs?.first?["outcome"] as? String == "fail")
  }

  /// An option given twice is a usage error (exit 2), not "the last one wins".
  @Test func repeatedOptionIsUsageError() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: one
          sh: echo one >> one.marker
      """)
    let run = try tree.duet("verify", "--jobs", "2", "--jobs", "3")
    #expect(run.status == 2)
    #expect(run.stderr.contains("--jobs given twice"))
    #expect(!tree.exists("one.marker"))
  }

  /// Option combinations are refused before any file is read: a bad combination
  /// in a folder with a broken manifest names the combination, not the manifest.
  @Test func combinationsCheckedBeforeReadingFiles() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes: [oops\n")
    let run = try tree.duet("verify", "--shard", "1/2", "--lane", "a")
    #expect(run.status == 2)
    #expect(run.stderr.contains("--shard and --lane cannot be combined"))
    let noDeps = try tree.duet("verify", "--no-deps")
    #expect(noDeps.status == 2)
    #expect(noDeps.stderr.contains("--no-deps needs --lane NAME"))
  }

  /// PASS says what did not run: skipped lanes are counted with the program they need.
  @Test func passLineCountsSkippedLanes() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: one
          sh: "true"
        - name: android
          sh: gradle test
          requires: [duet-no-such-gradle]
        - name: ios
          sh: xcodebuild test
          requires: [duet-no-such-gradle]
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 0)
    #expect(run.lines.last(where: { !$0.isEmpty }) == "duet verify: PASS (1 passed, 2 skipped: needs duet-no-such-gradle)")
  }

  /// A manifest with no lanes is an error (exit 2) that names `duet init`.
  @Test func manifestWithoutLanesIsAnError() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes: []\n")
    let run = try tree.duet("verify")
    #expect(run.status == 2)
    #expect(run.stderr.contains("no lanes"))
    #expect(run.stderr.contains("duet init"))
  }

  /// `--dry-run` says per lane `cached` or why it will run, and `--json` carries the same.
  @Test func dryRunGivesReasons() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: build
          sh: cat src/*.txt > built.txt
          inputs: [src/*.txt]
        - name: test
          sh: test -s built.txt
          needs: [build]
          inputs: [tests/*.txt]
        - name: lint
          sh: "true"
      """)
    try tree.write("src/a.txt", "a")
    try tree.write("src/b.txt", "b")
    try tree.write("src/c.txt", "c")
    try tree.write("tests/t.txt", "t")
    let fresh = try tree.duet("verify", "--dry-run")
    #expect(fresh.stdout.contains("build  runs  no passing run recorded"), "\(fresh.stdout)")
    #expect(!tree.exists(".duet/history.sqlite"))
    #expect(try tree.duet("verify").status == 0)
    let cached = try tree.duet("verify", "--dry-run")
    #expect(cached.lines[0].hasPrefix("duet verify --dry-run: 3 lane(s), 1 would run, 2 cached"), "\(cached.stdout)")
    #expect(cached.stdout.contains("lint   runs    no inputs declared"), "\(cached.stdout)")
    try tree.write("src/a.txt", "A")
    try tree.write("src/c.txt", "C")
    try tree.write("src/d.txt", "D")
    let changed = try tree.duet("verify", "--dry-run")
    #expect(changed.stdout.contains("build  runs  inputs changed (src/a.txt, src/c.txt, 1 more)"), "\(changed.stdout)")
    #expect(changed.stdout.contains("test   runs  a need will run (build)"), "\(changed.stdout)")
    #expect(changed.lines.last(where: { !$0.isEmpty }) == "nothing was run")
    let json = try tree.duet("verify", "--dry-run", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let lanes = object?["lanes"] as? [[String: Any]] ?? []
    #expect(lanes.first { $0["name"] as? String == "test" }?["reason"] as? String == "a need will run (build)")
    #expect(object?["schemaVersion"] as? Int == 2)
  }

  /// Lanes of a pool of depth 1 never overlap, even with free jobs.
  @Test func poolOfOneNeverOverlaps() throws {
    var manifest = "version: 1\npools: {gradle: 1}\nlanes:\n"
    for i in 0..<3 {
      // A sleep that is the point: each lane holds the pool a while, so an overlap would show.
      manifest += "  - {name: g\(i), pool: gradle, sh: 'mkdir lock.d || exit 9; sleep 0.3; rmdir lock.d'}\n"
    }
    let tree = try FixtureTree(manifest: manifest)
    let run = try tree.duet("verify", "--jobs", "3")
    #expect(run.status == 0, "\(run.stdout)")
    let unknown = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true', pool: gradel}\n")
    let refused = try unknown.duet("verify")
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("lanes/manifest.yaml:3:"))
    #expect(refused.stderr.contains("'pool' names unknown pool 'gradel'"))
  }
}
