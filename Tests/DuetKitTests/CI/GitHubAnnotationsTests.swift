import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
@testable import DuetRunReports

@Suite("GitHub annotations and step summary")
struct GitHubAnnotationsTests {
  /// Messages escape %, CR and LF; properties also escape : and ,.
  @Test func escaping() {
    #expect(WorkflowCommandText.escape("100% done\r\nnext", in: .data) == "100%25 done%0D%0Anext")
    #expect(WorkflowCommandText.escape("a:b,c%\n", in: .property) == "a%3Ab%2Cc%25%0A")
    let line = GitHubAnnotations.command("error", properties: [("title", "duet lane a,b: c")], message: "x\ny")
    #expect(line == "::error title=duet lane a%2Cb%3A c::x%0Ay")
  }

  /// A failed lane gets a group with its log tail, commands stopped inside it, and an error titled with its name; a flaky lane a warning.
  @Test func failuresAndFlakyLanes() throws {
    let lines = GitHubAnnotations.lines(CIFixtures.mixedRun, stopToken: "TOKEN")
    let groupStart = try #require(lines.firstIndex { $0.hasPrefix("::group::duet lane kotlin: exit 4") })
    #expect(lines[groupStart + 1] == "::stop-commands::TOKEN")
    let resume = try #require(lines[groupStart...].firstIndex(of: "::TOKEN::"))
    #expect(lines[groupStart..<resume].contains("   Main.kt:3: error: unresolved"))
    #expect(lines[resume + 1] == "::endgroup::")
    let errors = lines.filter { $0.hasPrefix("::error ") }
    #expect(errors.count == 2)
    #expect(errors.first?.hasPrefix("::error title=duet lane kotlin::exit 4 · log: .duet/logs/r/kotlin.log%0AMain.kt:3: error: unresolved") == true)
    #expect(errors.contains { $0.hasPrefix("::error title=duet lane slow::timed out") })
    let warnings = lines.filter { $0.hasPrefix("::warning ") }
    #expect(warnings == ["::warning title=duet lane swift is flaky::failed, then passed on attempt 2 · log: .duet/logs/r/swift.attempt-2.log"])
    #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
  }

  /// Twelve failures and twelve flaky lanes give ten errors and ten warnings, but a group for every failure.
  @Test func capsAtTenOfEachKind() {
    var records: [LaneVerdict] = []
    for i in 0..<12 { records.append(CIFixtures.record(i, "f\(i)", .fail, attempts: [CIFixtures.attempt(1, .fail, exit: 1, lines: ["boom"])])) }
    for i in 0..<12 { records.append(CIFixtures.record(12 + i, "k\(i)", .flaky, attempts: [CIFixtures.attempt(1, .fail, exit: 1), CIFixtures.attempt(2, .pass, exit: 0)])) }
    let lines = GitHubAnnotations.lines(RunVerdict(lanes: records, interrupted: false, duration: 1, changedTrackedFiles: ["x"]), stopToken: "T")
    #expect(lines.filter { $0.hasPrefix("::error ") }.count == GitHubAnnotations.maxPerKind)
    #expect(lines.filter { $0.hasPrefix("::warning ") }.count == GitHubAnnotations.maxPerKind)
    #expect(lines.filter { $0.hasPrefix("::group::") }.count == 12)
    #expect(lines.filter { $0 == "::endgroup::" }.count == 12)
  }

  /// Log lines that look like workflow commands or carry colour codes never reach an annotation raw.
  @Test func hostileLogText() throws {
    let record = CIFixtures.record(0, "x", .fail, attempts: [CIFixtures.attempt(1, .fail, exit: 1, lines: ["\u{1B}[31merror: 50%\u{1B}[0m \u{7}"])])
    let lines = GitHubAnnotations.lines(RunVerdict(lanes: [record], interrupted: false, duration: 1), stopToken: "T")
    let error = try #require(lines.first { $0.hasPrefix("::error ") })
    #expect(error.hasSuffix("%0Aerror: 50%25 \u{FFFD}"))
  }

  /// The summary has the verdict, a row per lane with pipes escaped, and the failed lanes' tails in collapsed blocks.
  @Test func summaryTable() {
    var run = CIFixtures.mixedRun
    run.lanes[2].reason = "needs a|b"
    let text = StepSummary.markdown(run.changing(["src/x.swift"]))
    #expect(text.hasPrefix("## ❌ duet verify: FAIL (1 failed: kotlin; 1 timed out: slow; 1 skipped; --strict: lanes changed 1 tracked file(s): src/x.swift)"))
    #expect(text.contains("| tokens | pass | 0.25s | 1 |  |"))
    #expect(text.contains("| theme | skipped | - | - | needs a\\|b |"))
    #expect(text.contains("<details><summary>kotlin: exit 4 · log: .duet/logs/r/kotlin.log</summary>"))
    #expect(text.contains("```text\ncompiling\nMain.kt:3: error: unresolved\n1 test FAILED\n```"))
    #expect(text.contains("`src/x.swift`"))
  }

  /// A tracked file whose name holds backticks and Markdown stays inside its
  /// code span, and the verdict line above shows it as text: no link, no image.
  @Test func aChangedPathIsTextInTheSummary() {
    let path = "x` [click](https:evil) ![p](https:evil?p.png) `y"
    let text = StepSummary.markdown(CIFixtures.mixedRun.changing([path]))
    #expect(text.contains("(`--strict`): ``x` [click](https:evil) ![p](https:evil?p.png) `y``\n"))
    #expect(text.contains(#"tracked file(s): x\` \[click\](https:evil) !\[p\](https:evil?p.png) \`y)"#))
  }

  /// However many lanes fail, the summary stays under its limit and says what it left out.
  @Test func summaryIsCapped() {
    let long = String(repeating: "x", count: 390)
    let records = (0..<150).map { i in
      CIFixtures.record(i, "lane-\(i)", .fail, attempts: [CIFixtures.attempt(1, .fail, exit: 1, lines: (0..<30).map { "\(i) \($0) \(long)" })])
    }
    let run = RunVerdict(lanes: records, interrupted: false, duration: 1)
    let text = StepSummary.markdown(run)
    #expect(text.utf8.count <= StepSummary.defaultLimit)
    #expect(StepSummary.defaultLimit < StepSummary.gitHubLimit)
    #expect(text.utf8.count > StepSummary.defaultLimit - 50_000)
    #expect(text.contains("left out to keep it under GitHub's 1 MiB limit"))
    #expect(text.contains("| lane-0 | fail |"))
    let small = StepSummary.markdown(run, limit: 2000)
    #expect(small.utf8.count <= 2000)
    #expect(small.contains("left out"))
  }

  /// A fence longer than any backtick run in the log keeps the code block closed.
  @Test func fenceOutgrowsBackticks() {
    let record = CIFixtures.record(0, "x", .fail, attempts: [CIFixtures.attempt(1, .fail, exit: 1, lines: ["````` five"])])
    let text = StepSummary.markdown(RunVerdict(lanes: [record], interrupted: false, duration: 1))
    #expect(text.contains("``````text\n````` five\n``````"))
  }
}
