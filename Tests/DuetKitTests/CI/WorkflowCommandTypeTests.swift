import Testing
@testable import DuetRun
@testable import DuetRunReports

/// Issue 42, item 4: `WorkflowCommand` is made only of duet's literal command
/// syntax, `WorkflowCommandText`'s escaping and other command text, so a
/// lane's text cannot end a command and start another.
@Suite("Workflow commands as a type")
struct WorkflowCommandTypeTests {
  @Test func textCannotStartAnotherCommand() {
    let lane = "x\n::add-mask::secret,y"
    let line: WorkflowCommand = "::error title=\(lane, in: .property)::\(lane)"
    #expect(line.text == "::error title=x%0A%3A%3Aadd-mask%3A%3Asecret%2Cy::x%0A::add-mask::secret,y")
  }
}
