import DuetOutput

/// What `duet doctor` found: one line per thing it looked at, and one sentence per
/// problem, a problem being anything a lane needs that is missing or broken.
package struct DoctorReport: Sendable, Codable {
  package struct Line: Sendable, Equatable, Codable {
    package var topic: String
    package var text: String
    init(topic: String, text: String) {
      self.topic = topic
      self.text = text
    }
  }

  package var root: String
  package var lines: [Line] = []
  package var problems: [String] = []

  init(root: String) { self.root = root }

  /// 0 when every lane has what it needs, 1 otherwise.
  package var exitCode: Int32 { problems.isEmpty ? 0 : 1 }

  package var verdict: String {
    problems.isEmpty
      ? "duet doctor: PASS (every lane has what it needs)"
      : "duet doctor: FAIL (\(problems.count) problem(s))"
  }

  /// `duet doctor --json`: the root, every line, the problems, the verdict line and
  /// `pass`, printed through `ReportJSON`.
  package var json: String { ReportJSON.text(DoctorJSON(self)) }

  mutating func add(_ topic: String, _ text: String) { lines.append(Line(topic: topic, text: text)) }
  mutating func problem(_ text: String) { problems.append(text) }
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
