import Foundation
import Testing

/// Issue 50, item 2: a test entry excuses a failure only when nothing but
/// quarantined cases failed. A crash after the report, a compile error in a
/// module that wrote no report, a missing report: the lane fails and says why.
@Suite("A quarantine accounts for every failure, end to end")
struct QuarantineExcuseCLITests {
  /// A lane whose report's only failure is quarantined, then `after` (the tail of its script).
  static func tree(after: String, reports: String = "[build/test-results/**/*.xml]") throws -> FixtureTree {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          reports: \(reports)
          sh: |
            mkdir -p build/test-results/testDebugUnitTest
            printf '<testsuite><testcase classname="app.CartTest" name="flips"><failure message="x"/></testcase><testcase classname="app.CartTest" name="ok"/></testsuite>' > build/test-results/testDebugUnitTest/TEST-app.CartTest.xml
            \(after)
      """)
    try tree.write("lanes/quarantine.yaml", """
      quarantine:
        - test: app.CartTest.flips
          lane: unit
          reason: flips on CI
          until: 2099-12-31
      """)
    return tree
  }

  /// The runner wrote its report and was then killed (the OOM killer's SIGKILL,
  /// a SIGSEGV in teardown): the shell exits 137 or 139, or duet sees the signal.
  @Test func aCrashAfterTheReportIsNeverExcused() throws {
    for (tail, why) in [("exit 137", "exited 137 (over 125: a signal or a crash, not a test failure)"),
                        ("exit 139", "exited 139 (over 125"),
                        ("kill -KILL $$", "killed by signal 9")] {
      let tree = try QuarantineExcuseCLITests.tree(after: tail)
      let run = try tree.duet("verify")
      #expect(run.status == 1, "\(tail): \(run.stdout)")
      #expect(run.stdout.contains("duet verify: FAIL"), "\(tail): \(run.stdout)")
      #expect(run.stdout.contains("duet: quarantine excuses nothing: \(why)"), "\(tail): \(run.stdout)")
    }
  }

  /// Gradle exits 1 for a failed test and for a compile error alike: after
  /// writing the reports of the modules that compiled, its log names the task
  /// that failed. A compile task fails the lane; a test task's failure is the
  /// quarantined test's, and is excused.
  @Test func aCompileErrorBesideAQuarantinedFailureIsNeverExcused() throws {
    let broken = try QuarantineExcuseCLITests.tree(after: """
      printf 'FAILURE: Build completed with 2 failures.\\n1: Task failed with an exception.\\n* What went wrong:\\nExecution failed for task '"'"':feature:compileDebugKotlin'"'"'.\\n'; exit 1
      """)
    let run = try broken.duet("verify")
    #expect(run.status == 1, "\(run.stdout)")
    #expect(run.stdout.contains("quarantine excuses nothing: Gradle task ':feature:compileDebugKotlin' failed"), "\(run.stdout)")

    let testsOnly = try QuarantineExcuseCLITests.tree(after: """
      printf '* What went wrong:\\nExecution failed for task '"'"':app:testDebugUnitTest'"'"'.\\n> There were failing tests.\\n'; exit 1
      """)
    let passed = try testsOnly.duet("verify")
    #expect(passed.status == 0, "\(passed.stdout)")
    #expect(passed.stdout.contains("1 quarantined failure: app.CartTest.flips"), "\(passed.stdout)")

    for line in ["/src/Cart.swift:12:5: error: cannot find 'x' in scope", "** TEST BUILD FAILED **", "error: Exited with unexpected signal code 11",
                 "Interrupted: 1 error during collection"] {
      let tree = try QuarantineExcuseCLITests.tree(after: "echo '\(line)'; exit 1")
      let run = try tree.duet("verify")
      #expect(run.status == 1, "\(line): \(run.stdout)")
      #expect(run.stdout.contains("quarantine excuses nothing: "), "\(line): \(run.stdout)")
    }
    // An XCTest failure's line (a line, no column) is a test's failure, not the build's.
    let xctest = try QuarantineExcuseCLITests.tree(after: "echo '/src/CartTests.swift:12: error: CartTest.flips : XCTAssertEqual failed'; exit 1")
    #expect(try xctest.duet("verify").status == 0)
  }

  /// A `reports:` glob that matched no report of the attempt (the module that
  /// did not build wrote none) excuses nothing.
  @Test func aMissingReportIsNeverExcused() throws {
    let tree = try QuarantineExcuseCLITests.tree(after: "exit 1", reports: "[build/test-results/**/*.xml, feature/build/test-results/**/*.xml]")
    let run = try tree.duet("verify")
    #expect(run.status == 1, "\(run.stdout)")
    #expect(run.stdout.contains("quarantine excuses nothing: no report matched 'feature/build/test-results/**/*.xml'"), "\(run.stdout)")
  }

  /// `DUET_QUARANTINED_TESTS` names a file of the lane's quarantined tests, one
  /// `classname.name` a line, for the lane to hand its runner as exclusions;
  /// a lane that does so passes on its own exit status.
  @Test func quarantinedTestsAreHandedToTheLane() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          reports: [out.xml]
          sh: |
            cp "$DUET_QUARANTINED_TESTS" seen.txt
            if grep -qx 'app.CartTest.flips' "$DUET_QUARANTINED_TESTS"; then r=''; else r='<failure message="x"/>'; fi
            printf '<testsuite><testcase classname="app.CartTest" name="ok"/>%s</testsuite>' "$(test -n "$r" && printf '<testcase classname="app.CartTest" name="flips">%s</testcase>' "$r")" > out.xml
            test -z "$r"
        - name: plain
          sh: 'test -z "${DUET_QUARANTINED_TESTS+set}"'
      """)
    #expect(try tree.duet("verify", "--lane", "unit").status == 1)
    #expect(try tree.read("seen.txt") == "")
    try tree.write("lanes/quarantine.yaml", """
      quarantine:
        - {test: app.CartTest.flips, lane: unit, reason: flips, until: 2099-12-31}
        - {test: "app.Other.*", lane: unit, reason: flips, until: 2099-12-31}
        - {test: app.Gone.old, lane: unit, reason: expired, until: 2020-01-01}
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(try tree.read("seen.txt") == "app.CartTest.flips\napp.Other.*\n")
    #expect(!run.stdout.contains("quarantined failure"), "\(run.stdout)")
  }

  /// A pass made with quarantined tests handed to the runner as exclusions
  /// (`DUET_QUARANTINED_TESTS`) is not served once the quarantine changes:
  /// the lane's key holds the tests it was handed, so with the entry removed
  /// the lane runs again, and fails, where it was served `cached` before.
  @Test func aPassWithExclusionsIsNotServedOnceTheyChange() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          inputs: [src/**]
          reports: [out.xml]
          sh: |
            if grep -qx 'app.CartTest.flips' "$DUET_QUARANTINED_TESTS"; then r=''; else r='<testcase classname="app.CartTest" name="flips"><failure message="x"/></testcase>'; fi
            printf '<testsuite><testcase classname="app.CartTest" name="ok"/>%s</testsuite>' "$r" > out.xml
            test -z "$r"
      """)
    try tree.write("src/a.txt", "one")
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - {test: app.CartTest.flips, lane: unit, reason: flips, until: 2099-12-31}\n")
    #expect(try tree.duet("verify").status == 0)
    let served = try tree.duet("verify")
    #expect(served.status == 0 && served.stdout.contains("unit  cached"), "\(served.stdout)")
    try tree.write("lanes/quarantine.yaml", "quarantine: []\n")
    let again = try tree.duet("verify")
    #expect(again.status == 1, "served the pass its exclusions made: \(again.stdout)")
  }

  /// Item 8: `verify --json` says a pass needed the quarantine (`excused`,
  /// `quarantined`, the attempt's real outcome); a retried lane's note names
  /// the quarantined failures that let it pass; `stats` counts excused runs
  /// apart (a lane that failed in all 3 runs, 2 excused, passed 0%, not 67%);
  /// the report's flaky map marks an excused run as excused, not ✓.
  @Test func anExcusedPassSaysSoEverywhere() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          reports: [out.xml]
          retries: 1
          sh: |
            if [ "$DUET_ATTEMPT" = 1 ] && [ -f retry ]; then a='<failure message="a"/>'; else a=''; fi
            printf '<testsuite><testcase classname="app.CartTest" name="flips"><failure message="x"/></testcase><testcase classname="app.CartTest" name="other">%s</testcase></testsuite>' "$a" > out.xml
            exit 1
      """)
    #expect(try tree.duet("verify").status == 1)
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - {test: app.CartTest.flips, lane: unit, reason: flips, until: 2099-12-31}\n")
    let json = try tree.duet("verify", "--json")
    #expect(json.status == 0, "\(json.stdout)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let lane = try #require((object["lanes"] as? [[String: Any]])?.first)
    #expect(lane["outcome"] as? String == "pass")
    #expect(lane["excused"] as? Bool == true)
    #expect(lane["quarantined"] as? [String] == ["app.CartTest.flips"])
    let attempt = try #require((lane["attempts"] as? [[String: Any]])?.first)
    #expect(attempt["outcome"] as? String == "fail" && attempt["excused"] as? Bool == true)

    try tree.write("retry", "")
    let retried = try tree.duet("verify")
    #expect(retried.status == 0, "\(retried.stdout)")
    #expect(retried.stdout.contains("failed, then passed on attempt 2 by 1 quarantined failure: app.Cart"), "\(retried.stdout)")

    let stats = try tree.duet("stats")
    #expect(stats.lines.count > 2 && stats.lines[1].contains("passed  excused"), "\(stats.stdout)")
    #expect(stats.lines[2].hasPrefix("  unit  3     5         0%      2        0%"), "\(stats.stdout)")
    let statsJSON = try #require(try JSONSerialization.jsonObject(with: Data(try tree.duet("stats", "--json").stdout.utf8)) as? [String: Any])
    let row = try #require((statsJSON["lanes"] as? [[String: Any]])?.first)
    #expect(row["passRate"] as? Double == 0 && row["excusedRuns"] as? Int == 2)

    #expect(try tree.duet("report", "--html", "report.html").status == 0)
    let page = try tree.read("report.html")
    #expect(page.components(separatedBy: "data-mark=\"excused\"").count - 1 == 2, "\(page)")
    #expect(page.components(separatedBy: "data-mark=\"fail\"").count - 1 == 1)
    #expect(!page.contains("data-mark=\"pass\""))
  }
}
