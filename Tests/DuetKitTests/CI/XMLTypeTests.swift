import Testing
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
@testable import DuetRunReports

/// Issue 42, item 4: `XML` is made only of duet's literal markup, `XMLText`'s
/// escaping and other XML, so a lane's name or a log line in the JUnit report
/// is escaped for element text or an attribute, whatever it is called.
@Suite("XML as a type")
struct XMLTypeTests {
  static let hostile = "]]></testcase>\"x\n"

  @Test func textAndAttributesAreEscapedForWhereTheyGo() {
    let xml: XML = "<failure message=\"\(Self.hostile, in: .attribute)\">\(Self.hostile)</failure>"
    #expect(xml.text == "<failure message=\"]]&gt;&lt;/testcase&gt;&quot;x&#10;\">]]&gt;&lt;/testcase&gt;\"x\n</failure>")
  }

  @Test func theReportHoldsNoRawMarkupFromALane() {
    let record = LaneVerdict(index: 0, name: "lane", outcome: .skipped, reason: Self.hostile, attempts: [])
    let report = JUnitReport.xml(RunVerdict(lanes: [record], interrupted: false, duration: 1))
    #expect(!report.contains("]]></testcase>"))
    #expect(report.contains("<skipped message=\"]]&gt;&lt;/testcase&gt;&quot;x&#10;\"/>"))
  }
}
