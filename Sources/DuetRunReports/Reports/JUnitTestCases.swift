import DuetTestReports
import DuetSupport
import DuetRun

/// The test cases of a lane's `reports:` in `verify --junit`: one `<testsuite>`
/// per lane that read any, named after the lane, holding the cases of its final
/// attempt (the one its outcome stands on), so CI shows the tests and not only the lanes.
///
/// A failure the quarantine excused is written as `<skipped>` whose message
/// says `quarantined until DAY: reason` and the failure's first line, with a
/// `quarantined` property beside it. CI test reporters (dorny/test-reporter,
/// GitLab's JUnit report) count any case holding `<failure>` as failed and
/// ignore `<properties>`, so a quarantined failure written as a failure would
/// turn their report red while the run passed; as `<skipped>` both show it,
/// with its message, as not run, which is what the quarantine made of it.
extension JUnitReport {
  /// One lane's report cases, as counted in its `<testsuite>`.
  struct LaneCases {
    var lane: String
    var cases: [TestCaseResult]
    /// The entries that excused the attempt, when the quarantine did.
    var quarantinedBy: [QuarantineEntry]
    var duration: Double

    /// The entry that let `test` fail without failing the run, if one did.
    func entry(for test: TestCaseResult) -> QuarantineEntry? {
      guard test.outcome.failed else { return nil }
      return quarantinedBy.first { $0.test != nil && $0.matches(test: test.fullName) } ?? quarantinedBy.first { $0.isLaneLevel }
    }

    var failures: Int { cases.filter { $0.outcome == .fail && entry(for: $0) == nil }.count }
    var errors: Int { cases.filter { $0.outcome == .error && entry(for: $0) == nil }.count }
    var skipped: Int { cases.filter { $0.outcome == .skipped || entry(for: $0) != nil }.count }
  }

  /// The lanes whose final attempt read test cases, in the run's order.
  static func laneCases(_ records: [LaneVerdict]) -> [LaneCases] {
    records.compactMap { record in
      guard let last = record.last, !last.tests.cases.isEmpty else { return nil }
      return LaneCases(lane: record.name, cases: last.tests.cases, quarantinedBy: last.excused ? last.quarantinedBy : [],
                       duration: last.tests.cases.reduce(0) { $0 + $1.duration })
    }
  }

  /// The `<testsuite>` of one lane's cases.
  static func suite(_ lane: LaneCases) -> [XML] {
    let counts = [("name", lane.lane), ("tests", String(lane.cases.count)), ("failures", String(lane.failures)),
                  ("errors", String(lane.errors)), ("skipped", String(lane.skipped)), ("time", seconds(lane.duration))]
    var lines: [XML] = ["  <testsuite" + attributes(counts) + ">"]
    for test in lane.cases { lines += testCase(test, quarantinedBy: lane.entry(for: test)) }
    lines.append("  </testsuite>")
    return lines
  }

  /// One case of a report: its suite as `classname`, its end and the first line of its message.
  static func testCase(_ test: TestCaseResult, quarantinedBy entry: QuarantineEntry?) -> [XML] {
    let head = "    <testcase" + attributes([("name", test.name), ("classname", test.suite), ("time", seconds(test.duration))])
    let message = test.message ?? ""
    if let entry {
      let why = "until \(entry.until): \(entry.reason)"
      return [head + ">", "      <properties>", "        <property" + attributes([("name", "quarantined"), ("value", why)]) + "/>",
              "      </properties>",
              "      <skipped" + attributes([("message", "quarantined " + why + (message.isEmpty ? "" : "; failed: " + message))]) + "/>",
              "    </testcase>"]
    }
    switch test.outcome {
    case .pass: return [head + "/>"]
    case .skipped: return [head + ">", "      <skipped" + attributes(message.isEmpty ? [] : [("message", message)]) + "/>", "    </testcase>"]
    case .fail, .error:
      let tag = test.outcome == .fail ? "failure" : "error"
      return [head + ">", "      <\(tag)" + attributes([("message", message)]) + ">" + text(message) + "</\(tag)>", "    </testcase>"]
    }
  }
}
