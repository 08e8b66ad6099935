@testable import DuetRun
import Foundation
import Testing
@testable import DuetPages
@testable import DuetHistory

/// `HistoryReport`, read from a store in one pass, against what the rows say (issue 32).
struct HistoryReportTests {
  /// A store of 40 runs of three lanes with seeded durations and outcomes, some cached, some retried, some failed.
  static func store() throws -> (HistoryStore, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = try HistoryStore(path: folder.appendingPathComponent("h.sqlite").path)
    var seed: UInt64 = 7
    func next() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) }
    for run in 0..<40 {
      let id = "run-\(run)", started = Double(1000 + run * 100)
      var steps: [StepRow] = []
      let fails = run % 7 == 3
      for (index, lane) in ["alpha", "beta", "gamma"].enumerated() {
        let at = started + Double(index)
        if lane == "gamma" && run % 4 == 0 {
          steps.append(StepRow(runID: id, lane: lane, attempt: 0, started: at, duration: 0, attemptOutcome: nil, laneOutcome: .cached, exitCode: nil, fingerprint: "f", logPath: nil))
        } else if lane == "beta" && run % 5 == 1 {
          steps.append(StepRow(runID: id, lane: lane, attempt: 1, started: at, duration: 0.5, attemptOutcome: .fail, laneOutcome: nil, exitCode: 1, fingerprint: "f", logPath: nil))
          steps.append(StepRow(runID: id, lane: lane, attempt: 2, started: at + 1, duration: next(), attemptOutcome: .pass, laneOutcome: .flaky, exitCode: 0, fingerprint: "f", logPath: nil))
        } else {
          let failed = fails && lane == "alpha"
          steps.append(StepRow(runID: id, lane: lane, attempt: 1, started: at, duration: next() * Double(index + 1), attemptOutcome: failed ? .fail : .pass,
                               laneOutcome: failed ? .fail : .pass, exitCode: failed ? 1 : 0, fingerprint: "f", logPath: nil))
        }
      }
      try store.record(RunRow(id: id, logID: id, started: started, ended: started + 5, command: "duet verify", root: "/t", gitCommit: nil, host: "h",
                              outcome: fails ? .fail : .pass, jobs: 2, duetVersion: "0"), steps: steps)
    }
    return (store, folder)
  }

  /// p50 and p95 per lane are those of `duet stats` over the same window; cache hits, failed and retried runs are counted as the rows say.
  @Test func figuresMatchTheRows() throws {
    let (store, folder) = try Self.store()
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = try HistoryReport.compute(store: store, last: 500)
    let stats = try StatsReport.compute(store: store, last: 500)
    #expect(report.runs == 40)
    #expect(report.lanes.map(\.name) == ["alpha", "beta", "gamma"])
    for (lane, entry) in zip(report.lanes, stats.entries) {
      #expect(lane.name == entry.lane)
      #expect(lane.durations.count == entry.runs)
      #expect(lane.p50 == entry.p50)
      #expect(lane.p95 == entry.p95)
    }
    #expect(report.cacheHits == 10)
    #expect(report.settled == 120)
    #expect(report.lanes[0].failedRuns == 6)
    #expect(report.lanes[1].retriedRuns == 8)
    #expect(report.lanes[2].cached == 10)
    #expect(report.failedRunCount == 6)
    #expect(report.failedRuns.map(\.id) == ["run-38", "run-31", "run-24", "run-17", "run-10", "run-3"])
    #expect(report.failedRuns.allSatisfy { $0.lanes == ["alpha"] })
  }

  /// The flaky map holds the newest runs of the window, oldest first, one mark per lane and run.
  @Test func flakyMapMarks() throws {
    let (store, folder) = try Self.store()
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = try HistoryReport.compute(store: store, last: 10)
    #expect(report.mapRuns.map(\.id) == (30..<40).map { "run-\($0)" })
    #expect(report.lanes.allSatisfy { $0.marks.count == 10 })
    let beta = try #require(report.lanes.first { $0.name == "beta" })
    #expect(beta.marks[1] == .retriedPass)  // run 31
    #expect(beta.marks[0] == .pass)
    let alpha = try #require(report.lanes.first { $0.name == "alpha" })
    #expect(alpha.marks[1] == .fail)  // run 31
    let gamma = try #require(report.lanes.first { $0.name == "gamma" })
    #expect(gamma.marks[2] == .cached)  // run 32
  }

  /// The page of the report stands alone and holds one row per lane in the flaky map.
  @Test func page() throws {
    let (store, folder) = try Self.store()
    defer { try? FileManager.default.removeItem(at: folder) }
    let html = ReportPage.html(try HistoryReport.compute(store: store, last: 500), time: { "t\($0)" })
    for word in ["<script", "<link", "src=", "href=", "http:", "https:", "url("] { #expect(!html.contains(word), "\(word)") }
    #expect(html.components(separatedBy: "data-mark=\"flaky\"").count - 1 == 8)
    #expect(html.contains("<h2>Slowest lane: gamma</h2>"))
  }

  /// A store of `runs` runs a day apart from Monday 2024-12-30 (ISO 2025-W01): `jitter` takes 10 or 15 ms, `steady`
  /// 3 s; `flaky` fails its first attempt every 7th run; `cached` runs (1, 2, then 2.5 s) in the first three runs and is cached after.
  static func dailyStore(runs: Int) throws -> (HistoryStore, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = try HistoryStore(path: folder.appendingPathComponent("h.sqlite").path)
    let monday = 1_735_516_800.0  // 2024-12-30T00:00:00Z
    for run in 0..<runs {
      let id = "run-\(run)", at = monday + Double(run) * 86_400 + 3600
      func step(_ lane: String, _ attempt: Int, _ seconds: Double, _ outcome: AttemptOutcome?, _ laneOutcome: LaneOutcome?) -> StepRow {
        StepRow(runID: id, lane: lane, attempt: attempt, started: at, duration: seconds, attemptOutcome: outcome, laneOutcome: laneOutcome,
                exitCode: outcome == .pass ? 0 : 1, fingerprint: "f", logPath: nil)
      }
      var steps = [step("jitter", 1, run % 2 == 0 ? 0.010 : 0.015, .pass, .pass), step("steady", 1, 3, .pass, .pass)]
      steps += run < 3 ? [step("cached", 1, [1, 2, 2.5][run], .pass, .pass)] : [step("cached", 0, 0, nil, .cached)]
      steps += run % 7 == 0 ? [step("flaky", 1, 0.2, .fail, nil), step("flaky", 2, 0.3, .pass, .flaky)] : [step("flaky", 1, 0.3, .pass, .pass)]
      try store.record(RunRow(id: id, logID: id, started: at, ended: at + 4, command: "duet verify", root: "/t", gitCommit: nil, host: "h",
                              outcome: .pass, jobs: 2, duetVersion: "0"), steps: steps)
    }
    return (store, folder)
  }

  /// Issue 41, item 7: the time the cache saved per ISO week, each cached lane run counted as its lane's median passing attempt (2 s).
  @Test func timeSavedPerWeek() throws {
    let (store, folder) = try Self.dailyStore(runs: 17)
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = try HistoryReport.compute(store: store, last: 500)
    // Runs 3-6 fall in 2025-W01 (Thursday 2 January to Sunday 5 January), 7-13 in W02, 14-16 in W03.
    #expect(report.savedByWeek.map(\.label) == ["2025-W01", "2025-W02", "2025-W03"])
    #expect(report.savedByWeek.map(\.from) == ["2024-12-30", "2025-01-06", "2025-01-13"])
    #expect(report.savedByWeek.map(\.hits) == [4, 7, 3])
    #expect(report.savedByWeek.map(\.seconds) == [8, 14, 6])
    #expect(HistoryReport.monday(of: 0) == -3)  // 1970-01-01, a Thursday
    #expect(HistoryReport.SavedWeek(monday: HistoryReport.monday(of: 1_609_632_000), hits: 0, unestimated: 0, seconds: 0).label == "2020-W53")  // 2021-01-03
    let html = ReportPage.html(report, time: { "t\($0)" })
    #expect(html.contains("<tr data-week=\"2025-W02\"><td>2025-W02</td><td>2025-01-06</td><td class=\"num\">7</td><td class=\"num\">14.0s</td>"))
  }

  /// Issue 41, item 7: the page names the flaky lanes in words above the map, and the map of 45 runs fits in a bounded
  /// width with the newest run first.
  @Test func flakyLanesInWordsAndTheMapFits() throws {
    let (store, folder) = try Self.dailyStore(runs: 45)
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = try HistoryReport.compute(store: store, last: 500)
    let html = ReportPage.html(report, time: { "t\(Int($0))" })
    let words = try #require(html.firstRange(of: "<p id=\"flaky-lanes\">"))
    let map = try #require(html.firstRange(of: "id=\"flaky-map\""))
    #expect(words.lowerBound < map.lowerBound)
    #expect(html[words.upperBound...].prefix(200).contains("<strong>flaky</strong> (in 7 of the 45 run(s) it ran in)"))
    let width = try #require(html.firstMatch(of: try Regex(#"id="flaky-map"[^>]* width="([0-9.]+)""#)).flatMap { Double(String($0.output[1].substring!)) })
    #expect(width <= 1100)
    let newest = Int(report.mapRuns.last!.started)
    let firstCell = try #require(html.firstMatch(of: try Regex(#"<g class="cell \w+" data-mark="\w+"><title>flaky, t(\d+):"#)))
    #expect(firstCell.output[1].substring! == "\(newest)")
  }

  /// Issue 41, item 7: sparklines share one scale, so a lane of 10 ms with 5 ms of jitter draws flat (within a pixel),
  /// and the slowest lane's chart has an x and a y axis with tick labels.
  @Test func sparklinesShareAScaleAndTheChartHasAxes() throws {
    let (store, folder) = try Self.dailyStore(runs: 20)
    defer { try? FileManager.default.removeItem(at: folder) }
    let html = ReportPage.html(try HistoryReport.compute(store: store, last: 500), time: { "t\($0)" })
    let row = try #require(html.firstMatch(of: try Regex(#"<tr data-lane="jitter">.*?<polyline points="([^"]*)""#)))
    let ys = row.output[1].substring!.split(separator: " ").compactMap { Double($0.split(separator: ",")[1]) }
    #expect(ys.count == 20)
    #expect((ys.max() ?? 0) - (ys.min() ?? 0) <= 1, "\(ys)")
    let chart = try #require(html.firstMatch(of: try Regex(#"<svg id="slowest".*?</svg>"#)))
    let text = String(chart.output[0].substring!)
    #expect(text.contains("<g class=\"axis y\">") && text.contains("<g class=\"axis x\">"))
    #expect(text.contains(">0s</text>") && text.contains(">3s</text>"))
    #expect(text.contains(">0</text>") && text.contains(">20</text>"))
  }

  /// Issue 40: the page names the flaky tests in words, by `flaky --tests`'s
  /// rule, every name escaped; a window with tests and none flaky says so; one
  /// with no test case (no lane has `reports:`) says nothing of tests.
  @Test func flakyTestsInWords() throws {
    func entry(_ name: String, fingerprints: Int, retries: Int, recovered: Bool = false) -> TestFlakyReport.Entry {
      TestFlakyReport.Entry(lane: "kotlin <k>", suite: "ChatTests", name: name, runs: 40, failures: 3, flakyFingerprints: fingerprints, flips: 1,
                            retriesPassed: retries, lastSeen: 0, recovered: recovered, lastFailure: nil)
    }
    let flaky = TestFlakyReport(entries: [entry("testSend", fingerprints: 1, retries: 0), entry("test<b>&", fingerprints: 2, retries: 1),
                                          entry("testOld", fingerprints: 1, retries: 0, recovered: true)], runsInWindow: 40, keysSeen: 9)
    var report = HistoryReport()
    report.flakyTests = FlakyTestsInWords(flaky)
    let html = ReportPage.html(report, time: { "t\($0)" })
    #expect(html.contains("<p id=\"flaky-tests\">2 tests are flaky: <strong>ChatTests.testSend</strong> in kotlin &lt;k&gt; (both outcomes on one fingerprint, 3 failure(s) in 40 run(s)), "
                          + "<strong>ChatTests.test&lt;b&gt;&amp;</strong> in kotlin &lt;k&gt; (both outcomes on 2 fingerprints, passed on a retry once, 3 failure(s) in 40 run(s)).</p>"), "\(html)")
    #expect(!html.contains("testOld"))
    #expect(report.flakyTests?.line.text.hasPrefix("2 tests are flaky: ChatTests.testSend in kotlin <k> (both outcomes") == true)

    report.flakyTests = FlakyTestsInWords(TestFlakyReport(entries: [], runsInWindow: 40, keysSeen: 9))
    #expect(ReportPage.html(report, time: { "t\($0)" }).contains("<p id=\"flaky-tests\">No test was flaky in the window"))
    report.flakyTests = FlakyTestsInWords(TestFlakyReport(entries: [], runsInWindow: 40, keysSeen: 0))
    #expect(report.flakyTests == nil)
    #expect(!ReportPage.html(report, time: { "t\($0)" }).contains("flaky-tests"))
  }
}
