import DuetRun
import DuetTokens
import DuetModel
import DuetSupport

/// What `duet doctor` found: one line per thing it looked at, and one sentence per
/// problem, a problem being anything a lane needs that is missing or broken.
public struct DoctorReport: Sendable {
  public struct Line: Sendable, Equatable {
    public var topic: String
    public var text: String
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

  package mutating func add(_ topic: String, _ text: String) { lines.append(Line(topic: topic, text: text)) }
  package mutating func problem(_ text: String) { problems.append(text) }
}
