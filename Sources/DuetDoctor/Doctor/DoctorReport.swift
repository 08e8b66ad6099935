import DuetOutput
import DuetSupport

/// What `duet doctor` found: one line per thing it looked at, and one sentence per
/// problem, a problem being anything a lane needs that is missing or broken.
package struct DoctorReport: Sendable, Codable {
  struct Line: Sendable, Equatable, Codable {
    var topic: String
    var text: String
  }

  var root: String
  var lines: [Line] = []
  var problems: [String] = []
  /// `duet doctor --sandbox` (issue 56): its lanes ran, each in the sandbox,
  /// and the verdict says so; `couldNotStart` counts those whose sandbox could
  /// not start, the machine's failure (exit 3), listed among the problems.
  package var ranInSandbox = false
  package var couldNotStart = 0

  package init(root: String) { self.root = root }

  /// 0 when every lane has what it needs (under `--sandbox`: passed in it), 1
  /// otherwise, 3 when a sandbox could not start.
  package var exitCode: Int32 { couldNotStart > 0 ? 3 : problems.isEmpty ? 0 : 1 }

  var verdict: String {
    if couldNotStart > 0 { return "duet doctor: ERROR (the sandbox could not start \(couldNotStart) lane(s); \(problems.count) problem(s))" }
    if !problems.isEmpty { return "duet doctor: FAIL (\(problems.count) problem(s))" }
    return ranInSandbox ? "duet doctor: PASS (every lane that ran passed in the sandbox)" : "duet doctor: PASS (every lane has what it needs)"
  }

  /// `duet doctor --json`: the root, every line, the problems, the verdict line and
  /// `pass`, printed through `ReportJSON`.
  package var json: String { ReportJSON.text(DoctorJSON(self)) }

  /// The report as text, `maxWidth` wide: the root and the findings as a
  /// hanging list, the verdict (`passed`: painted as a pass), and one line per
  /// problem, never wrapped, so a CI log can be searched for them.
  package func text(maxWidth: Int) -> (lines: [TerminalLine], verdict: TerminalLine, passed: Bool, problems: [TerminalLine]) {
    let findings = HangingList.lines(lines.map { ("\($0.topic)", "\($0.text)") }, maxWidth: maxWidth)
    return (["duet doctor: \(root)"] + findings, "\(verdict)", problems.isEmpty, problems.map { "  \($0)" })
  }

  package mutating func add(_ topic: String, _ text: String) { lines.append(Line(topic: topic, text: text)) }
  package mutating func problem(_ text: String) { problems.append(text) }
}

/// The JSON of `duet doctor --json`.
package struct DoctorJSON: Codable, Sendable, Equatable {
  var root: String
  var lines: [DoctorReport.Line]
  var problems: [String]
  var pass: Bool
  var summary: String

  init(_ report: DoctorReport) {
    root = report.root
    lines = report.lines
    problems = report.problems
    pass = report.problems.isEmpty
    summary = report.verdict
  }
}
