import DuetModel
import DuetSupport
import DuetRun
import DuetHistory

/// A run as JUnit XML (`duet verify --junit FILE`): one `testsuite` for the run,
/// one `testcase` per lane, then one `testsuite` per lane with `reports:` holding
/// the test cases its final attempt read (`JUnitTestCases.swift`). Pure: the caller writes the text.
///
/// Fail and timeout are `<failure>` holding the log tail; skipped and cancelled
/// lanes are `<skipped>` with the reason; `flaky`, `cached`, the attempts and the
/// log path are `<properties>` of the test case. The report is built as `XML`,
/// so every text from the run goes in escaped for XML 1.0 (`XMLText`); it is
/// made a String only when returned.
package enum JUnitReport {
  /// The JUnit text of a run. Tracked files changed under `--strict` add a
  /// failing test case naming them.
  package static func xml(_ verdict: RunVerdict, suiteName: String = "duet verify", timestamp: String? = nil) -> String {
    let changedFiles = verdict.changedTrackedFiles
    let failures = verdict.lanes.filter { $0.outcome.failsRun }.count + (changedFiles.isEmpty ? 0 : 1)
    let skipped = verdict.lanes.filter { isSkip($0.outcome) }.count
    let tests = verdict.lanes.count + (changedFiles.isEmpty ? 0 : 1)
    var suiteAttributes = [
      ("name", suiteName), ("tests", String(tests)), ("failures", String(failures)),
      ("errors", String(verdict.lanes.filter { $0.outcome == .error }.count)), ("skipped", String(skipped)), ("time", seconds(verdict.duration)),
    ]
    if let timestamp { suiteAttributes.append(("timestamp", timestamp)) }

    // The lanes' own test cases, each lane's in a suite of its own after the lanes'.
    let lanes = laneCases(verdict.lanes)
    let caseCount: Int = lanes.reduce(0) { $0 + $1.cases.count }
    let caseFailures: Int = lanes.reduce(0) { $0 + $1.failures }
    let caseErrors: Int = lanes.reduce(0) { $0 + $1.errors }
    let caseSkips: Int = lanes.reduce(0) { $0 + $1.skipped }
    let laneErrors: Int = verdict.lanes.filter { $0.outcome == .error }.count
    let totals: [(String, String)] = [
      ("name", "duet"), ("tests", String(tests + caseCount)), ("failures", String(failures + caseFailures)),
      ("errors", String(laneErrors + caseErrors)), ("skipped", String(skipped + caseSkips)), ("time", seconds(verdict.duration)),
    ]
    var lines: [XML] = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
    lines.append("<testsuites" + attributes(totals) + ">")
    lines.append("  <testsuite" + attributes(suiteAttributes) + ">")
    for record in verdict.lanes {
      lines += testCase(record)
    }
    if !changedFiles.isEmpty {
      lines.append("    <testcase" + attributes([("name", "tracked files unchanged (--strict)"), ("classname", "duet"), ("time", "0")]) + ">")
      let message = "lanes changed tracked files: " + changedFiles.joined(separator: ", ")
      lines.append("      <failure" + attributes([("message", message), ("type", "tree-changed")]) + ">" + text(changedFiles.joined(separator: "\n")) + "</failure>")
      lines.append("    </testcase>")
    }
    lines.append("  </testsuite>")
    for lane in lanes { lines += suite(lane) }
    lines.append("</testsuites>")
    return (lines.joined(separator: "\n") + "\n").text
  }

  static func isSkip(_ outcome: LaneOutcome) -> Bool {
    outcome == .skipped || outcome == .cancelled || outcome == .interrupted || outcome == .unaffected
  }

  static func testCase(_ record: LaneVerdict) -> [XML] {
    var lines: [XML] = ["    <testcase" + attributes([("name", record.name), ("classname", "duet.lanes"), ("time", seconds(record.duration))]) + ">"]
    var properties: [(String, String)] = [("outcome", record.outcome.rawValue), ("attempts", String(record.attempts.count))]
    if record.outcome == .flaky { properties.append(("flaky", "true")) }
    if record.outcome == .cached { properties.append(("cached", "true")) }
    if let log = record.last?.logPath { properties.append(("log", log)) }
    lines.append("      <properties>")
    for (name, value) in properties {
      lines.append("        <property" + attributes([("name", name), ("value", value)]) + "/>")
    }
    lines.append("      </properties>")
    switch record.outcome {
    case .fail, .timeout:
      let type = record.outcome == .timeout ? "timeout" : "fail"
      let message = record.outcome == .timeout ? "timed out" : (record.attempts.isEmpty ? (record.reason ?? "did not start") : RunText.endText(record.last))
      let body = record.last?.tail.reportLines.joined(separator: "\n") ?? (record.reason ?? "")
      lines.append("      <failure" + attributes([("message", message), ("type", type)]) + ">" + text(body) + "</failure>")
    case .error:
      // JUnit's own word for a test that could not run, as against one that failed.
      let message = record.reason ?? "duet could not start it"
      lines.append("      <error" + attributes([("message", message), ("type", "error")]) + ">" + text(message) + "</error>")
    case .skipped, .cancelled, .interrupted, .unaffected:
      let reason = record.reason ?? record.outcome.rawValue
      lines.append("      <skipped" + attributes([("message", record.outcome == .skipped ? reason : "\(record.outcome.rawValue): \(reason)")]) + "/>")
    case .pass, .flaky, .cached:
      break
    }
    lines.append("    </testcase>")
    return lines
  }

  static func seconds(_ value: Double) -> String {
    guard value.isFinite, value > 0 else { return "0" }
    var text = String(format: "%.3f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// ` name="value"…`, every value escaped for an attribute.
  static func attributes(_ pairs: [(String, String)]) -> XML {
    pairs.map { " \($0.0)=\"\($0.1, in: .attribute)\"" as XML }.joined()
  }

  /// Character data.
  static func text(_ value: String) -> XML {
    XML(escaping: value)
  }
}
