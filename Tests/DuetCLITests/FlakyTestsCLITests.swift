import Foundation
import Testing

@Suite("Flaky tests from the lanes' JUnit reports, end to end")
struct FlakyTestsCLITests {
  /// Issue 40: a lane whose report says `app.CartTest.addsItem` fails on the
  /// first run and passes on the second, with the same inputs, beside a test
  /// that always passes. The built `duet flaky --tests` names the first, with
  /// its failure's first line, and not the second; `--json` says the same.
  @Test func flakyTestsNamesATestWithBothOutcomesOnOneFingerprint() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          inputs: [src/**]
          reports: [build/test-results/**/*.xml]
          sh: |
            n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count
            mkdir -p build/test-results/test
            if [ "$n" -ge 1 ]; then result='/>'; else result='><failure message="expected: &lt;2&gt; but was: &lt;1&gt;&#10;at CartTest.kt:12" type="AssertionError">trace</failure></testcase>'; fi
            printf '<?xml version="1.0" encoding="UTF-8"?>\\n<testsuite name="app.CartTest" tests="2"><properties/><testcase name="addsItem" classname="app.CartTest" time="0.012"%s<testcase name="stable" classname="app.CartTest" time="0.001"/></testsuite>\\n' "$result" > build/test-results/test/TEST-app.CartTest.xml
            test "$n" -ge 1
      """)
    try tree.write("src/a.txt", "one")
    #expect(try tree.duet("verify").status == 1)
    #expect(try tree.duet("verify").status == 0)
    let report = try tree.duet("flaky", "--tests")
    #expect(report.status == 0)
    #expect(report.lines[0].hasPrefix("duet flaky --tests: 2 run(s) in the window; flaky test = "))
    #expect(report.stdout.contains("\n  app.CartTest.addsItem (lane unit): 2 run(s), 1 failure(s), 1 flaky fingerprint(s), 1 flip(s), 0 retry(ies) passed; last seen "))
    #expect(report.stdout.contains("\n    last failed: expected: <2> but was: <1>\n"))
    #expect(!report.stdout.contains("stable"))
    let json = try tree.duet("flaky", "--tests", "--lane", "unit", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let tests = try #require(object["tests"] as? [[String: Any]])
    #expect(tests.map { "\($0["suite"] ?? "").\($0["name"] ?? "")" } == ["app.CartTest.addsItem"])
    #expect(tests.first?["status"] as? String == "flaky")
    #expect(try tree.duet("flaky", "--lane", "unit").status == 2)

    let stats = try tree.duet("stats", "--tests")
    #expect(stats.status == 0)
    #expect(stats.lines[0] == "duet stats --tests: 2 run(s) in the window")
    #expect(stats.lines[1].hasPrefix("  lane  runs  pass rate  p50    p95    max    test"))
    #expect(stats.lines[2] == "  unit  2     50%        0.01s  0.01s  0.01s  app.CartTest.addsItem")
    #expect(stats.lines[3] == "  unit  2     100%       0.00s  0.00s  0.00s  app.CartTest.stable")
  }

  /// Issue 40: the built `duet report` and its page name the flaky test in
  /// words, by `flaky --tests`'s rule; a tree whose lanes have no `reports:` says nothing of tests.
  @Test func reportNamesFlakyTestsInWords() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          inputs: [src/**]
          reports: [out.xml]
          sh: |
            n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count
            if [ "$n" -ge 1 ]; then r=''; else r='<failure message="boom"/>'; fi
            printf '<testsuite><testcase classname="app.Chat&lt;T&gt;" name="sends">%s</testcase><testcase classname="app.Chat" name="stable"/></testsuite>' "$r" > out.xml
            test "$n" -ge 1
      """)
    try tree.write("src/a.txt", "one")
    #expect(try tree.duet("verify").status == 1)
    #expect(try tree.duet("verify").status == 0)
    let text = try tree.duet("report", "--html", "report.html")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("\n1 test is flaky: app.Chat<T>.sends in unit (both outcomes on one fingerprint, 1 failure(s) in 2 run(s))\n"), "\(text.stdout)")
    let page = try tree.read("report.html")
    #expect(page.contains("<p id=\"flaky-tests\">1 test is flaky: <strong>app.Chat&lt;T&gt;.sends</strong> in unit (both outcomes on one fingerprint, 1 failure(s) in 2 run(s)).</p>"))

    let plain = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: unit, sh: echo ok}\n")
    #expect(try plain.duet("verify").status == 0)
    let none = try plain.duet("report", "--html", "report.html")
    #expect(!none.stdout.contains("flaky:") && !none.stdout.contains("No test"), "\(none.stdout)")
    #expect(!(try plain.read("report.html")).contains("flaky-tests"))
  }

  /// A test's name is text from a file: an escape sequence or a line break in
  /// it reaches the terminal shown, never raw, and the JSON as JSON escapes.
  @Test func hostileTestNamesAreShownNotObeyed() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          retries: 1
          reports: [out.xml]
          sh: |
            if [ "$DUET_ATTEMPT" = 1 ]; then r='<failure message="x&#27;]0;title&#7;"/>'; else r=''; fi
            printf '<testsuite><testcase classname="a&#27;[2J" name="evil&#27;[31mred&#10;duet verify: PASS">%s</testcase></testsuite>' "$r" > out.xml
            test "$DUET_ATTEMPT" != 1
      """)
    #expect(try tree.duet("verify").status == 0)
    let text = try tree.duet("flaky", "--tests")
    #expect(text.status == 0)
    #expect(!text.stdout.contains("\u{1B}") && !text.stdout.contains("\u{07}"), "\(text.stdout.debugDescription)")
    #expect(text.lines.filter { !$0.isEmpty }.count == 3, "\(text.stdout)")
    let json = try tree.duet("flaky", "--tests", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let test = try #require((object["tests"] as? [[String: Any]])?.first)
    #expect(test["name"] as? String == "evil\u{1B}[31mred\nduet verify: PASS")
    #expect(test["suite"] as? String == "a\u{1B}[2J")
  }
}
