import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("verify --junit writes the lanes' own test cases, end to end")
struct JUnitTestCasesCLITests {
  /// `unit` reads a report with a failure, a pass, a skip and a name holding
  /// markup; `flips` fails its first attempt's case and passes its second;
  /// `lint` has no reports.
  static let manifest = """
    version: 1
    lanes:
      - name: unit
        reports: [out/unit.xml]
        sh: |
          mkdir -p out
          printf '<testsuite name="app"><testcase classname="app.CartTest" name="addsItem" time="0.25"><failure message="expected: &lt;2&gt;&#10;at Cart.kt:3">trace</failure></testcase><testcase classname="app.CartTest" name="ok &lt;b&gt; &amp; &quot;q&quot;" time="0.5"/><testcase classname="app.CartTest" name="later"><skipped message="not yet"/></testcase></testsuite>' > out/unit.xml
          exit 1
      - name: flips
        retries: 1
        reports: [out/flips.xml]
        sh: |
          mkdir -p out
          if [ "$DUET_ATTEMPT" = 1 ]; then r='<failure message="first"/>'; else r=''; fi
          printf '<testsuite><testcase classname="app.FlipTest" name="attempt%s">%s</testcase></testsuite>' "$DUET_ATTEMPT" "$r" > out/flips.xml
          test "$DUET_ATTEMPT" != 1
      - name: lint
        sh: echo ok
    """

  func cases(_ document: XMLDocument, suite: String) throws -> [XMLElement] {
    try document.nodes(forXPath: "/testsuites/testsuite[@name='\(suite)']/testcase").compactMap { $0 as? XMLElement }
  }

  func attribute(_ element: XMLElement?, _ name: String) -> String? {
    element?.attribute(forName: name)?.stringValue
  }

  /// Issue 40: beside one case per lane, each lane with `reports:` gets a suite
  /// of its final attempt's cases, with their class, time, and failure's or
  /// skip's first line; markup in a name is escaped and read back whole; the
  /// totals count the cases.
  @Test func junitHoldsTheFinalAttemptsCases() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let run = try tree.duet("verify", "--junit", "junit.xml")
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    let document = try XMLDocument(data: Data(try tree.read("junit.xml").utf8), options: [])
    #expect(try cases(document, suite: "duet verify").compactMap { attribute($0, "name") } == ["unit", "flips", "lint"])
    let unit = try cases(document, suite: "unit")
    try #require(unit.count == 3, "no suite of unit's cases")
    #expect(unit.compactMap { attribute($0, "name") } == ["addsItem", "ok <b> & \"q\"", "later"])
    #expect(unit.compactMap { attribute($0, "classname") } == Array(repeating: "app.CartTest", count: 3))
    #expect(unit.compactMap { attribute($0, "time") } == ["0.25", "0.5", "0"])
    #expect(attribute(unit[0].elements(forName: "failure").first, "message") == "expected: <2>")
    #expect(unit[1].children?.isEmpty ?? true)
    #expect(attribute(unit[2].elements(forName: "skipped").first, "message") == "not yet")
    let suite = try #require(try document.nodes(forXPath: "/testsuites/testsuite[@name='unit']").first as? XMLElement)
    #expect([attribute(suite, "tests"), attribute(suite, "failures"), attribute(suite, "skipped")] == ["3", "1", "1"])
    #expect(try cases(document, suite: "flips").compactMap { attribute($0, "name") } == ["attempt2"])
    #expect(try cases(document, suite: "lint").isEmpty)
    let top = try #require(document.rootElement())
    #expect([attribute(top, "tests"), attribute(top, "failures"), attribute(top, "skipped")] == ["7", "2", "1"])
  }

  /// Issue 40: a failure the quarantine excused is `<skipped>` saying which
  /// entry let it pass and until when, with the failure's first line, and a
  /// `quarantined` property: no CI reporter counts it as a failure.
  @Test func aQuarantinedFailureIsASkipThatSaysWhy() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - test: app.CartTest.add*\n    lane: unit\n    reason: flips <on> CI\n    until: 2099-12-31\n")
    let run = try tree.duet("verify", "--junit", "junit.xml")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let document = try XMLDocument(data: Data(try tree.read("junit.xml").utf8), options: [])
    let adds = try #require(try cases(document, suite: "unit").first)
    #expect(adds.elements(forName: "failure").isEmpty)
    #expect(attribute(adds.elements(forName: "skipped").first, "message") == "quarantined until 2099-12-31: flips <on> CI; failed: expected: <2>")
    let property = try adds.nodes(forXPath: "properties/property[@name='quarantined']").first as? XMLElement
    #expect(attribute(property, "value") == "until 2099-12-31: flips <on> CI")
    let suite = try #require(try document.nodes(forXPath: "/testsuites/testsuite[@name='unit']").first as? XMLElement)
    #expect([attribute(suite, "failures"), attribute(suite, "skipped")] == ["0", "2"])
    #expect(attribute(document.rootElement(), "failures") == "0")
  }
}
