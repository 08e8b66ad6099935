import Foundation
import Testing

/// Issue 50, items 3 and 11: which lanes may read a report, and within what
/// time, with the built binary on a temporary tree.
@Suite("Reports: lanes that cross, and reading within the timeout, end to end")
struct ReportsBoundsCLITests {
  /// Two lanes as Gradle and a second tool write them: `other`'s glob matches
  /// `gradle`'s report too. Run at once, `other` recorded `gradle`'s case.
  static func manifest(otherNeeds: String) -> String {
    """
    version: 1
    lanes:
      - name: gradle
        reports: ["build/test-results/**/*.xml"]
        sh: |
          mkdir -p build/test-results/test
          printf '<testsuite><testcase classname="app.A" name="ok"/></testsuite>' > build/test-results/test/TEST-app.A.xml
      - name: other\(otherNeeds)
        reports: ["build/**/*.xml"]
        sh: |
          mkdir -p build/other
          printf '<testsuite><testcase classname="app.B" name="broken"><failure message="boom"/></testcase></testsuite>' > build/other/b.xml
          exit 1
    """
  }

  /// Lanes that may run at once with reports globs that can match one file
  /// are refused at load: exit 2, both lanes and both globs named with their
  /// `file:line:column`, nothing run. Once `other` needs `gradle`, they take
  /// turns, and each lane's suite in `--junit` holds only its own cases.
  @Test func crossingReportsAreRefusedAndTakingTurnsKeepsThemApart() throws {
    let tree = try FixtureTree(manifest: ReportsBoundsCLITests.manifest(otherNeeds: ""))
    let refused = try tree.binary("verify", "--junit", "junit.xml")
    #expect(refused.status == 2)
    #expect(refused.stderr == "lanes/manifest.yaml:9:15: error: lane 'other': its reports \"build/**/*.xml\" and the reports "
      + "\"build/test-results/**/*.xml\" of lane 'gradle' (lanes/manifest.yaml:4:15) can match one file, and the two lanes may run "
      + "at once (neither needs the other), so each would record the other's test cases; narrow a glob, make one lane need the "
      + "other, or put both in a pool of depth 1\n", "\(refused.stderr)")
    #expect(!tree.exists("build") && !tree.exists("junit.xml"))

    try tree.write("lanes/manifest.yaml", ReportsBoundsCLITests.manifest(otherNeeds: "\n    needs: [gradle]"))
    let run = try tree.binary("verify", "--junit", "junit.xml")
    #expect(run.status == 1, "\(run.stderr)")
    let junit = try tree.read("junit.xml")
    #expect(junit.contains("""
        <testsuite name="gradle" tests="1" failures="0" errors="0" skipped="0" time="0">
          <testcase name="ok" classname="app.A" time="0"/>
        </testsuite>
        <testsuite name="other" tests="1" failures="1" errors="0" skipped="0" time="0">
          <testcase name="broken" classname="app.B" time="0">
      """), "\(junit)")
  }

  /// Reports are read within the lane's `timeout:`: a lane that used all of it
  /// has its report left unread, with one warning in its log and on stderr.
  @Test func reportsAreReadWithinTheLanesTimeout() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          timeout: 1s
          reports: [out.xml]
          sh: |
            printf '<testsuite><testcase classname="app.A" name="ok"/></testsuite>' > out.xml
            # A sleep that is the point: the lane uses all of its timeout.
            sleep 5
      """)
    let run = try tree.binary("verify")
    #expect(run.status == 1)
    #expect(run.stdout.contains("   duet: warning: report out.xml: not read; the lane's timeout ran out before duet read it\n"), "\(run.stdout)")
    #expect(run.stderr.contains("duet verify: warning: lane 'unit' attempt 1: report out.xml: not read; the lane's timeout ran out before duet read it\n"), "\(run.stderr)")
  }
}
