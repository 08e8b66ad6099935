import DuetModel
import DuetSupport
import DuetRun

/// A run as GitHub Actions workflow commands (under `GITHUB_ACTIONS=true`): each
/// failed lane's log tail inside `::group::`/`::endgroup::`, an `::error` per
/// failure and a `::warning` per flaky lane. Pure: the caller prints the lines.
///
/// GitHub shows at most 10 error and 10 warning annotations per step, so no more
/// than that are emitted; the step summary names every lane. Log lines are
/// printed between `::stop-commands::TOKEN` and `::TOKEN::`, so a lane that prints
/// `::error::` or `::add-mask::` cannot issue workflow commands through duet.
package enum GitHubAnnotations {
  /// The most annotations of one kind GitHub shows for a step.
  static let maxPerKind = 10

  /// The lines to print after the run. `stopToken` should be unguessable (a
  /// random UUID): log text cannot then resume command processing early.
  package static func lines(_ verdict: RunVerdict, stopToken: String) -> [String] {
    let changedFiles = verdict.changedTrackedFiles
    var lines: [String] = []
    let failures = verdict.unfinished
    for record in failures {
      lines += group(record, stopToken: stopToken)
    }
    var errors: [String] = []
    for record in failures {
      errors.append(command("error", properties: [("title", "duet lane \(record.name)")], message: errorMessage(record)))
    }
    if !changedFiles.isEmpty {
      errors.append(command("error", properties: [("title", "duet verify --strict")],
                            message: "lanes changed tracked files: " + changedFiles.joined(separator: ", ")))
    }
    for problem in verdict.reportErrors {
      errors.append(command("error", properties: [("title", "duet verify")], message: problem))
    }
    lines += errors.prefix(maxPerKind)
    let warnings = verdict.flaky.map { record in
      command("warning", properties: [("title", "duet lane \(record.name) is flaky")],
              message: "failed, then passed on attempt \(record.attempts.count)" + (record.last?.logPath.map { " · log: \($0)" } ?? ""))
    }
    lines += warnings.prefix(maxPerKind)
    return lines
  }

  /// A failed lane's log tail in a collapsible group, with commands stopped inside it.
  static func group(_ record: LaneVerdict, stopToken: String) -> [String] {
    var block = RunText.failureBlock(record)
    guard !block.isEmpty else { return [] }
    let heading = block.removeFirst()
    let start: WorkflowCommand = "::group::\(heading.replacingOccurrences(of: "── ", with: "duet lane "))"
    var lines = [start.text]
    if !block.isEmpty {
      let stop: WorkflowCommand = "::stop-commands::\(stopToken)"
      let resume: WorkflowCommand = "::\(stopToken)::"
      // The log lines as they are: no command runs between these two.
      lines += [stop.text] + block + [resume.text]
    }
    lines.append("::endgroup::")
    return lines
  }

  /// `exit 1 · log: .duet/logs/…/kotlin.log`, then the error-looking lines of the tail.
  static func errorMessage(_ record: LaneVerdict) -> String {
    var message: String
    if record.outcome == .timeout {
      message = "timed out"
    } else {
      message = record.attempts.isEmpty ? (record.reason ?? "did not start") : RunText.endText(record.last)
    }
    if let log = record.last?.logPath { message += " · log: \(log)" }
    let errors = record.last?.tail.errorLines.prefix(5) ?? []
    if !errors.isEmpty { message += "\n" + errors.joined(separator: "\n") }
    return message
  }

  /// `::name key=value,key=value::message`, every part escaped.
  static func command(_ name: String, properties: [(String, String)] = [], message: String) -> String {
    var line: WorkflowCommand = "::\(name)"
    if !properties.isEmpty {
      line += " " + properties.map { "\($0.0, in: .property)=\($0.1, in: .property)" as WorkflowCommand }.joined(separator: ",")
    }
    line += "::\(message)"
    return line.text
  }
}
