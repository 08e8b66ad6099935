import Foundation
import Testing

/// Issue 50, item 1: a test's identity is where it ran (lane, report file,
/// suite, name, position among namesakes), and only a later attempt is a retry.
@Suite("Test identity: variants and parameterised cases are tests of their own")
struct TestIdentityCLITests {
  /// `./gradlew test` runs `testDebugUnitTest` and `testReleaseUnitTest`; both
  /// write `TEST-app.CartTest.xml` with the same classname and name. A test that
  /// fails only in debug, every run, with no retry, is a deterministic failure:
  /// `flaky --tests` names no flaky test, `stats --tests` shows debug at 0% and
  /// release at 100% as two rows, and `quarantine suggest` offers nothing.
  @Test func aFailureInOneGradleVariantIsNotFlaky() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          inputs: [src/**]
          reports: [app/build/test-results/**/*.xml]
          sh: |
            for variant in testDebugUnitTest testReleaseUnitTest; do
              mkdir -p app/build/test-results/$variant
              if [ $variant = testDebugUnitTest ]; then r='<failure message="debug only"/>'; else r=''; fi
              printf '<testsuite name="app.CartTest"><testcase classname="app.CartTest" name="addsItem" time="0.5">%s</testcase></testsuite>' "$r" > app/build/test-results/$variant/TEST-app.CartTest.xml
            done
            exit 1
      """)
    try tree.write("src/a.txt", "one")
    #expect(try tree.duet("verify").status == 1)
    #expect(try tree.duet("verify").status == 1)

    let flaky = try tree.duet("flaky", "--tests")
    #expect(flaky.status == 0)
    #expect(flaky.stdout.contains("\nno flaky tests\n"), "\(flaky.stdout)")
    #expect(!flaky.stdout.contains("retry(ies) passed"), "\(flaky.stdout)")

    let stats = try tree.duet("stats", "--tests")
    #expect(stats.status == 0)
    #expect(stats.lines.contains("  unit  2     0%         0.50s  0.50s  0.50s  app.CartTest.addsItem [testDebugUnitTest]"), "\(stats.stdout)")
    #expect(stats.lines.contains("  unit  2     100%       0.50s  0.50s  0.50s  app.CartTest.addsItem [testReleaseUnitTest]"), "\(stats.stdout)")

    let json = try tree.duet("stats", "--tests", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let tests = try #require(object["tests"] as? [[String: Any]])
    #expect(tests.compactMap { $0["report"] as? String } == [
      "app/build/test-results/testDebugUnitTest/TEST-app.CartTest.xml",
      "app/build/test-results/testReleaseUnitTest/TEST-app.CartTest.xml",
    ])

    let suggest = try tree.duet("quarantine", "suggest")
    #expect(suggest.status == 0)
    #expect(!suggest.stdout.contains("duet quarantine add"), "\(suggest.stdout)")
  }

  /// pytest `--junitxml` with parameterised cases written under one displayed
  /// name, one failing and one passing, every run: not a retry, not flaky; a
  /// case that fails on attempt 1 and passes on attempt 2 of the same run is.
  @Test func parameterisedNamesakesAreNotRetries() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: py
          inputs: [src/**]
          reports: [junit.xml]
          retries: 1
          sh: |
            if [ "$DUET_ATTEMPT" = 1 ]; then flip='<failure message="once"/>'; else flip=''; fi
            printf '<testsuites><testsuite name="pytest"><testcase classname="tests.test_x" name="test_x"><failure message="assert 1 == 2"/></testcase><testcase classname="tests.test_x" name="test_x"/><testcase classname="tests.test_y" name="test_y">%s</testcase></testsuite></testsuites>' "$flip" > junit.xml
            [ "$DUET_ATTEMPT" = 2 ]
      """)
    try tree.write("src/a.txt", "one")
    #expect(try tree.duet("verify").status == 0)
    let flaky = try tree.duet("flaky", "--tests", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(flaky.stdout.utf8)) as? [String: Any])
    let tests = try #require(object["tests"] as? [[String: Any]])
    #expect(tests.map { "\($0["suite"] ?? "").\($0["name"] ?? "")" } == ["tests.test_y.test_y"], "\(flaky.stdout)")
    #expect(tests.first?["retriesPassed"] as? Int == 1)

    let stats = try tree.duet("stats", "--tests")
    #expect(stats.lines.contains { $0.hasSuffix("tests.test_x.test_x [#1]") && $0.contains(" 0% ") }, "\(stats.stdout)")
    #expect(stats.lines.contains { $0.hasSuffix("tests.test_x.test_x [#2]") && $0.contains(" 100% ") }, "\(stats.stdout)")
  }
}
