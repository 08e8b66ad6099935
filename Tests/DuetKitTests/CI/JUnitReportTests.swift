import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
@testable import DuetRunReports

@Suite("JUnit report")
struct JUnitReportTests {
  func parse(_ text: String) throws -> XMLDocument {
    try XMLDocument(data: Data(text.utf8), options: [])
  }

  func testCase(_ document: XMLDocument, _ name: String) throws -> XMLElement {
    let nodes = try document.nodes(forXPath: "/testsuites/testsuite/testcase[@name='\(name)']")
    return try #require(nodes.first as? XMLElement)
  }

  func property(_ element: XMLElement, _ name: String) throws -> String? {
    try element.nodes(forXPath: "properties/property[@name='\(name)']").compactMap { ($0 as? XMLElement)?.attribute(forName: "value")?.stringValue }.first
  }

  /// The report parses back to one suite with one case per lane and counts that match the outcomes.
  @Test func structureMatchesTheRun() throws {
    let run = CIFixtures.mixedRun
    let document = try parse(JUnitReport.xml(run, timestamp: "2026-12-02T18:00:00Z"))
    let suites = try document.nodes(forXPath: "/testsuites/testsuite")
    #expect(suites.count == 1)
    let suite = try #require(suites.first as? XMLElement)
    #expect(suite.attribute(forName: "tests")?.stringValue == String(run.lanes.count))
    #expect(suite.attribute(forName: "failures")?.stringValue == "2")
    #expect(suite.attribute(forName: "skipped")?.stringValue == "1")
    #expect(suite.attribute(forName: "time")?.stringValue == "12.5")
    #expect(suite.attribute(forName: "timestamp")?.stringValue == "2026-12-02T18:00:00Z")
    let names = try document.nodes(forXPath: "/testsuites/testsuite/testcase").compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
    #expect(names == run.lanes.map(\.name))
  }

  /// Fail and timeout carry a failure with the log tail; skipped a reason; flaky and cached a property each.
  @Test func outcomesBecomeElementsAndProperties() throws {
    let document = try parse(JUnitReport.xml(CIFixtures.mixedRun))
    let kotlin = try testCase(document, "kotlin")
    let failure = try #require(kotlin.elements(forName: "failure").first)
    #expect(failure.attribute(forName: "message")?.stringValue == "exit 4")
    #expect(failure.stringValue?.contains("Main.kt:3: error: unresolved") == true)
    #expect(failure.stringValue?.contains("1 test FAILED") == true)
    #expect(kotlin.attribute(forName: "time")?.stringValue == "1.5")

    let slow = try testCase(document, "slow")
    #expect(slow.elements(forName: "failure").first?.attribute(forName: "type")?.stringValue == "timeout")

    let theme = try testCase(document, "theme")
    #expect(theme.elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue == "needs kotlin")
    #expect(theme.elements(forName: "failure").isEmpty)

    let swift = try testCase(document, "swift")
    #expect(try property(swift, "flaky") == "true")
    #expect(try property(swift, "attempts") == "2")
    #expect(swift.elements(forName: "failure").isEmpty)
    #expect(try property(try testCase(document, "mocks"), "cached") == "true")
    #expect(try property(try testCase(document, "tokens"), "flaky") == nil)
    #expect(try property(try testCase(document, "tokens"), "log") == ".duet/logs/r/tokens.log")
  }

  /// XML specials, quotes, ANSI colour codes and control characters in names, reasons and logs still give well-formed XML with the text intact.
  @Test func escapesHostileText() throws {
    let nasty = "a<b>&c \"q\" 's' ]]> \u{1B}[31mred\u{1B}[0m nul\u{0}bell\u{7} ff\u{C} end\u{FFFE}"
    let run = RunVerdict(lanes: [
      CIFixtures.record(0, "x", .fail, attempts: [CIFixtures.attempt(1, .fail, exit: 1, lines: [nasty, "tab\there"])]),
      CIFixtures.record(1, "y", .skipped, reason: "needs <kotlinc> & \"java\"\nnewline", attempts: []),
    ], interrupted: false, duration: 1)
    let xml = JUnitReport.xml(run, suiteName: "suite & <co>")
    #expect(!xml.contains("\u{1B}") && !xml.contains("\u{0}") && !xml.contains("\u{7}") && !xml.contains("\u{FFFE}"))
    let document = try parse(xml)
    let failure = try #require(try testCase(document, "x").elements(forName: "failure").first?.stringValue)
    #expect(failure.contains("a<b>&c \"q\" 's' ]]> red nul\u{FFFD}bell\u{FFFD} ff\u{FFFD} end\u{FFFD}"))
    #expect(failure.contains("tab\there"))
    let skipped = try testCase(document, "y").elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue
    #expect(skipped == "needs <kotlinc> & \"java\"\nnewline")
    #expect((document.rootElement()?.elements(forName: "testsuite").first?.attribute(forName: "name")?.stringValue) == "suite & <co>")
  }

  /// Tracked files changed under --strict become one more failing test case that names them.
  @Test func changedFilesAddAFailure() throws {
    let document = try parse(JUnitReport.xml(CIFixtures.mixedRun.changing(["a.txt", "b/c.swift"])))
    let suite = try #require(document.rootElement()?.elements(forName: "testsuite").first)
    #expect(suite.attribute(forName: "failures")?.stringValue == "3")
    let cases = suite.elements(forName: "testcase")
    let last = try #require(cases.last)
    #expect(last.elements(forName: "failure").first?.attribute(forName: "message")?.stringValue == "lanes changed tracked files: a.txt, b/c.swift")
  }

  /// Only characters XML 1.0 allows pass the filter.
  @Test func allowedCharacters() {
    #expect(XMLText.isAllowed("\t") && XMLText.isAllowed("\n") && XMLText.isAllowed("a") && XMLText.isAllowed("\u{1F600}"))
    #expect(!XMLText.isAllowed("\u{0}") && !XMLText.isAllowed("\u{1F}") && !XMLText.isAllowed("\u{FFFE}") && !XMLText.isAllowed("\u{FFFF}"))
  }
}
