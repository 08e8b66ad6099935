import DuetOutput

/// What `duet doctor` found: one line per thing it looked at, and one sentence per
/// problem, a problem being anything a lane needs that is missing or broken.
public struct DoctorReport: Sendable, Codable {
  public struct Line: Sendable, Equatable, Codable {
    public var topic: String
    public var text: String
    public init(topic: String, text: String) {
      self.topic = topic
      self.text = text
    }
  }

  public var root: String
  public var lines: [Line] = []
  public var problems: [String] = []

  public init(root: String) { self.root = root }

  /// 0 when every lane has what it needs, 1 otherwise.
  public var exitCode: Int32 { problems.isEmpty ? 0 : 1 }

  public var verdict: String {
    problems.isEmpty
      ? "duet doctor: PASS (every lane has what it needs)"
      : "duet doctor: FAIL (\(problems.count) problem(s))"
  }

  /// `duet doctor --json`: the root, every line, the problems, the verdict line and
  /// `pass`, printed through `ReportJSON`.
  public var json: String { ReportJSON.text(DoctorJSON(self)) }

  package mutating func add(_ topic: String, _ text: String) { lines.append(Line(topic: topic, text: text)) }
  package mutating func problem(_ text: String) { problems.append(text) }
}

/// The JSON of `duet doctor --json`.
public struct DoctorJSON: Codable, Sendable, Equatable {
  public var root: String
  public var lines: [DoctorReport.Line]
  public var problems: [String]
  public var pass: Bool
  public var summary: String

  public init(_ report: DoctorReport) {
    root = report.root
    lines = report.lines
    problems = report.problems
    pass = report.problems.isEmpty
    summary = report.verdict
  }
}
