import Testing
@testable import DuetDoctor
@testable import DuetSupport

/// `duet doctor` prints the text its report hands over (issue 54, item 1): the
/// command reads no line's or problem's fields one by one.
struct DoctorReportTextTests {
  @Test func theRootTheFindingsTheVerdictAndOneLinePerProblem() {
    var report = DoctorReport(root: "/tmp/tree")
    report.add("tree", "/tmp/tree (found by lanes/manifest.yaml)")
    report.add("lane unit", "has what it needs")
    var text = report.text(maxWidth: 100)
    #expect(text.lines.map(\.text) == ["duet doctor: /tmp/tree", "  tree       /tmp/tree (found by lanes/manifest.yaml)", "  lane unit  has what it needs"])
    #expect(text.verdict.text == "duet doctor: PASS (every lane has what it needs)")
    #expect(text.passed && text.problems.isEmpty)
    report.problem("lane unit: 'swift' is not on PATH")
    text = report.text(maxWidth: 100)
    #expect(text.verdict.text == "duet doctor: FAIL (1 problem(s))")
    #expect(!text.passed)
    #expect(text.problems.map(\.text) == ["  lane unit: 'swift' is not on PATH"])
  }
}
