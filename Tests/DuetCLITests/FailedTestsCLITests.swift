import Foundation
import Testing

/// Issue 55, item 3: `duet verify --failed-tests` runs again, in each lane
/// whose last run failed test cases, only those cases: their names are in the
/// file `DUET_FAILED_TESTS` names. Such a pass says so, is recorded as running
/// only the failed tests, and is never cached: the next plain verify runs the lane in full.
@Suite("duet verify --failed-tests, end to end")
struct FailedTestsCLITests {
  /// A lane whose runner takes a list of tests (all three by default, those of
  /// `DUET_FAILED_TESTS` when set); `app.T.b` fails until the file `fixed` exists.
  private static let manifest = """
    version: 1
    lanes:
      - name: unit
        inputs: [src/**]
        reports: [build/*.xml]
        sh: |
          mkdir -p build
          only="app.T.a app.T.b app.T.c"
          if [ -n "${DUET_FAILED_TESTS:-}" ]; then only=$(cat "$DUET_FAILED_TESTS"); fi
          out='<testsuite name="app.T">'; status=0
          for t in $only; do
            name=${t#app.T.}
            if [ "$name" = b ] && [ ! -f fixed ]; then out="$out<testcase classname=\\"app.T\\" name=\\"$name\\"><failure message=\\"boom\\"/></testcase>"; status=1
            else out="$out<testcase classname=\\"app.T\\" name=\\"$name\\"/>"; fi
          done
          echo "$out</testsuite>" > build/report.xml
          echo "$only" | tr '\\n' ' ' >> ran.txt; echo >> ran.txt
          exit $status
      - name: lint
        inputs: [src/**]
        sh: "true"
    """

  @Test func onlyTheFailedCasesRunAndThePassIsNeverCached() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src/a.txt", "one")
    let nothing = try tree.duet("verify", "--failed-tests")
    #expect(nothing.status == 0)
    #expect(nothing.stdout.contains("duet verify --failed-tests: no run recorded yet; nothing to run"))
    #expect(try tree.duet("verify").status == 1)
    try tree.write("fixed", "")
    let again = try tree.duet("verify", "--failed-tests")
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    #expect(again.lines.contains("duet verify --failed-tests: unit: 1 of 3 (app.T.b)"))
    #expect(again.lines.contains { $0.hasPrefix("unit  pass ") && $0.hasSuffix("failed tests only: 1 of 3") }, "\(again.stdout)")
    #expect(!again.stdout.contains("lint"))
    #expect(try tree.read("ran.txt") == "app.T.a app.T.b app.T.c \napp.T.b \n")
    // Not the lane's pass: the next plain verify runs it in full.
    let dry = try tree.duet("verify", "--dry-run")
    #expect(dry.lines.contains { $0.hasSuffix("unit  runs    it last passed running only its failed tests (--failed-tests), not all of them") }, "\(dry.stdout)")
    #expect(try tree.duet("verify").status == 0)
    #expect(try tree.read("ran.txt").hasSuffix("app.T.b \napp.T.a app.T.b app.T.c \n"))
    let none = try tree.duet("verify", "--failed-tests")
    #expect(none.stdout.contains("no lane's last run failed a test case; nothing to run"))
  }

  /// The forwarding one-liner of docs/history.md, with the real pytest: the
  /// report's `tests.test_cart.test_adds` becomes `tests/test_cart.py::test_adds`.
  @Test func pytestRunsOnlyTheFailedCase() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: py
          inputs: [tests/**]
          reports: [build/junit.xml]
          sh: python3 -m pytest -q -p no:cacheprovider --junitxml=build/junit.xml ${DUET_FAILED_TESTS:+$(sed -E 's/\\.([^.]+)$/.py::\\1/; :a; s/^([^:]*)\\.([^:]*\\.py::)/\\1\\/\\2/; ta' "$DUET_FAILED_TESTS")}
      """)
    try tree.write("tests/test_cart.py", """
      import os
      def test_adds(): assert os.path.exists("fixed")
      def test_totals(): assert True
      def test_empty(): assert True
      """)
    #expect(try tree.duet("verify").status == 1)
    try tree.write("fixed", "")
    let again = try tree.duet("verify", "--failed-tests")
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    #expect(again.lines.contains("duet verify --failed-tests: py: 1 of 3 (tests.test_cart.test_adds)"), "\(again.stdout)")
    #expect(again.lines.contains { $0.hasPrefix("py    pass ") && $0.hasSuffix("failed tests only: 1 of 3") }, "\(again.stdout)")
    #expect(try tree.read("build/junit.xml").contains("tests=\"1\""))
  }

  @Test func itChoosesItsOwnLanes() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    for other in ["--failed", "--lane=unit", "--since=HEAD", "--shard=1/2"] {
      let result = try tree.duet("verify", "--failed-tests", other)
      #expect(result.status == 2)
      #expect(result.stderr.contains("--failed-tests and \(other.split(separator: "=")[0]) cannot be combined"), "\(result.stderr)")
    }
  }
}
