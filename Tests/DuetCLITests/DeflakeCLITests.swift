import Foundation
import Testing

/// Issue 55, item 2: `duet deflake LANE --runs N [--jobs J] [--test NAME]`
/// runs one lane N times on its current inputs, records every run, and states
/// the failure rate with its 95% (Wilson) interval.
@Suite("duet deflake: a lane's failure rate with its interval, end to end")
struct DeflakeCLITests {
  /// A lane that fails every other run (a counter outside its inputs).
  private static let alternating = """
    version: 1
    lanes:
      - name: coin
        inputs: [src/**]
        sh: |
          n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count
          test $((n % 2)) -eq 1
    """

  @Test func statesTheRateWithItsIntervalAndRecordsEveryRun() throws {
    let tree = try FixtureTree(manifest: Self.alternating)
    try tree.write("src/a.txt", "one")
    let result = try tree.duet("deflake", "coin", "--runs", "4")
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("coin: 2 of 4 runs failed (50%, 95% interval 15%–85%) at fingerprint "))
    #expect(try tree.read("count") == "4\n")
    let flaky = try tree.duet("flaky")
    #expect(flaky.stdout.contains("4 run(s) in the window"))
    let json = try tree.duet("deflake", "coin", "--runs", "2", "--json")
    #expect(json.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["runs"] as? Int == 2)
    #expect(object["failed"] as? Int == 1)
    #expect(abs((object["low"] as? Double ?? 0) - 0.0945) < 0.0001)
    #expect(abs((object["high"] as? Double ?? 0) - 0.9055) < 0.0001)
  }

  @Test func noFailureExitsZeroAndStillBoundsTheRate() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: ok\n    inputs: [src/**]\n    sh: \"true\"\n")
    try tree.write("src/a.txt", "one")
    let result = try tree.duet("deflake", "ok", "--runs", "4")
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("ok: 0 of 4 runs failed (0%, 95% interval 0%–49%) at fingerprint "))
  }

  /// With `--jobs 2`, each worker runs in a temporary worktree of the current
  /// tree: the uncommitted edit and the untracked file are there, the runs are
  /// recorded in the tree's own history at the tree's fingerprint, and no
  /// worktree is left behind.
  @Test func parallelRunsSeeTheUncommittedTreeAndRecordHere() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: edited
          inputs: [src/**]
          sh: grep -q changed src/a.txt && test -f src/new.txt
      """)
    try tree.write("src/a.txt", "one")
    try CIGit.commitAll(tree)
    try tree.write("src/a.txt", "changed")
    try tree.write("src/new.txt", "untracked")
    let here = try tree.duet("deflake", "edited", "--runs", "1")
    #expect(here.status == 0)
    let fingerprint = try #require(here.stdout.split(separator: " ").last)
    let parallel = try tree.duet("deflake", "edited", "--runs", "6", "--jobs", "3")
    #expect(parallel.status == 0, "\(parallel.stdout)\(parallel.stderr)")
    #expect(parallel.stdout == "edited: 0 of 6 runs failed (0%, 95% interval 0%–39%) at fingerprint \(fingerprint)")
    let stats = try tree.duet("stats")
    #expect(stats.stdout.contains("7 run(s) in the window"))
    let list = Process()
    list.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    list.arguments = ["git", "worktree", "list", "--porcelain"]
    list.currentDirectoryURL = tree.url
    let pipe = Pipe()
    list.standardOutput = pipe
    try list.run()
    list.waitUntilExit()
    let worktrees = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(worktrees.components(separatedBy: "worktree ").count == 2, "\(worktrees)")
    #expect(try tree.read("src/a.txt") == "changed")
  }

  @Test func theRateOfOneTestCase() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          inputs: [src/**]
          reports: [build/test-results/**/*.xml]
          sh: |
            n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count
            mkdir -p build/test-results/test
            if [ $((n % 3)) -eq 0 ]; then result='><failure message="boom">trace</failure></testcase>'; else result='/>'; fi
            printf '<?xml version="1.0" encoding="UTF-8"?>\\n<testsuite name="app.CartTest" tests="2"><testcase name="addsItem" classname="app.CartTest" time="0.012"%s<testcase name="stable" classname="app.CartTest" time="0.001"/></testsuite>\\n' "$result" > build/test-results/test/TEST-app.CartTest.xml
      """)
    try tree.write("src/a.txt", "one")
    let flaky = try tree.duet("deflake", "unit", "--test", "app.CartTest.addsItem", "--runs", "6")
    #expect(flaky.status == 1)
    #expect(flaky.stdout.hasPrefix("app.CartTest.addsItem (lane unit): 2 of 6 runs failed (33%, 95% interval 10%–70%) at fingerprint "))
    let stable = try tree.duet("deflake", "unit", "--test", "stable", "--runs", "2")
    #expect(stable.status == 0)
    #expect(stable.stdout.hasPrefix("stable (lane unit): 0 of 2 runs failed"))
    let missing = try tree.duet("deflake", "unit", "--test", "app.CartTest.nope", "--runs", "1")
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("app.CartTest.nope (lane unit) is in the reports of none of the 1 run(s)"))
  }

  @Test func usageErrorsExitTwoAndSayWhy() throws {
    let tree = try FixtureTree(manifest: Self.alternating)
    try tree.write("src/a.txt", "one")
    let cases: [([String], String)] = [
      (["deflake", "coin"], "deflake needs --runs N"),
      (["deflake", "--runs", "3"], "deflake needs a LANE"),
      (["deflake", "coim", "--runs", "3"], "no lane 'coim' in lanes/manifest.yaml"),
      (["deflake", "coin", "--runs", "0"], "--runs needs a whole number above 0, got '0'"),
      (["deflake", "coin", "--runs", "3", "--jobs", "0"], "--jobs needs a whole number above 0, got '0'"),
      (["deflake", "coin", "--runs", "3", "--test", "x"], "--test reads the test cases of the lane's reports, and coin has no reports:"),
    ]
    for (arguments, message) in cases {
      let result = try tree.duet(arguments: arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    #expect(!tree.exists("count"))
  }

  @Test func parallelRunsNeedAGitTree() throws {
    let tree = try FixtureTree(manifest: Self.alternating)
    try tree.write("src/a.txt", "one")
    let result = try tree.duet("deflake", "coin", "--runs", "2", "--jobs", "2")
    #expect(result.status == 2)
    #expect(result.stderr.contains("is not in a git repository, so its runs cannot go into temporary worktrees; use --jobs 1"))
  }
}
