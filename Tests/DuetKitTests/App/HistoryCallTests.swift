import Foundation
import Testing
@testable import DuetApp
@testable import DuetHistory
@testable import DuetPages
@testable import DuetRun
@testable import DuetSupport

/// The history commands as calls: a verify recorded by `verify(_:)`, then
/// read back by `history`, `flaky`, `stats`, `report`, `trace` and `logs`,
/// each a request in and a response out, no process and no command line.
struct HistoryCallTests {
  let tree: TemporaryFolder
  /// The environment every request carries; the store's place comes from here.
  let environment: [String: String]

  init() throws {
    tree = try TemporaryFolder()
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: build
          sh: echo built
        - name: test
          sh: 'echo "error: boom" && exit 3'
          needs: [build]
      """)
    environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
  }

  /// One recorded run: build passes, test fails.
  func recordRun(environment: [String: String]? = nil) throws {
    var request = VerifyRequest(root: tree.url, duetVersion: "test", environment: environment ?? self.environment)
    request.options.jobs = 1
    _ = try verify(request)
  }

  @Test func historyListsTheRunWithItsFailedLane() throws {
    guard case .noHistory(let none) = try history(HistoryRequest(root: tree.url, environment: environment)) else {
      Issue.record("expected no history before a run")
      return
    }
    #expect(none.path == tree.url.appendingPathComponent(".duet/history.sqlite").path)
    try recordRun()
    let response = try history(HistoryRequest(root: tree.url, environment: environment))
    guard case .runs(_, nil, let runs, let failed) = response else {
      Issue.record("expected runs")
      return
    }
    #expect(runs.count == 1)
    #expect(runs.first?.outcome == .fail)
    #expect(failed[runs[0].id] == ["test"])
    let text = response.printout(TextFormat(width: 200)).outText
    #expect(text.hasPrefix("duet history: 1 most recent run(s), newest first\n"))
    #expect(text.contains("test\n"))
  }

  /// `--lane` naming no lane of the manifest or the history is a usage error
  /// naming the nearest: the command line's one check (`KnownLanes`, issue 54, item 11).
  @Test func anUnknownLaneIsAUsageError() throws {
    #expect {
      try KnownLanes.check([LaneWord("tset", origin: "--lane")], root: tree.url, environment: environment, orHistory: true, command: "history")
    } throws: { ($0 as? UsageError)?.message.contains("did you mean 'test'") == true }
  }

  /// The store is where the request's environment says, whatever this process's says.
  @Test func theStoreComesFromTheRequestsEnvironment() throws {
    let elsewhere = tree.url.appendingPathComponent("elsewhere.sqlite").path
    #expect(ProcessInfo.processInfo.environment["DUET_HISTORY"] == nil)
    var moved = environment
    moved["DUET_HISTORY"] = elsewhere
    try recordRun(environment: moved)
    #expect(FileManager.default.fileExists(atPath: elsewhere))
    #expect(!FileManager.default.fileExists(atPath: tree.url.appendingPathComponent(".duet/history.sqlite").path))
    guard case .runs(let store, _, let runs, _) = try history(HistoryRequest(root: tree.url, environment: moved)) else {
      Issue.record("expected the runs of the moved store")
      return
    }
    #expect(store == elsewhere)
    #expect(runs.count == 1)
    guard case .noHistory = try history(HistoryRequest(root: tree.url, environment: environment)) else {
      Issue.record("the default store has no runs")
      return
    }
    var off = environment
    off["DUET_HISTORY"] = "off"
    #expect { try stats(StatsRequest(root: tree.url, environment: off)) } throws: {
      ($0 as? CommandFailure)?.message == "duet stats: error: history is off (DUET_HISTORY=off)"
    }
  }

  @Test func flakyStatsAndReportReadTheWindow() throws {
    try recordRun()
    try recordRun()
    guard case .report(let flakyReport) = try flaky(FlakyRequest(root: tree.url, environment: environment)) else {
      Issue.record("expected a flaky report")
      return
    }
    #expect(flakyReport.runsInWindow == 2)
    #expect(flakyReport.flaky.isEmpty)
    guard case .report(let statsReport) = try stats(StatsRequest(root: tree.url, environment: environment)) else {
      Issue.record("expected a stats report")
      return
    }
    #expect(statsReport.entries.map(\.lane).sorted() == ["build", "test"])
    #expect(statsReport.entries.first { $0.lane == "test" }?.passRate == 0)
    var request = ReportRequest(root: tree.url, environment: environment)
    request.htmlPath = tree.url.appendingPathComponent("report.html").path
    let response = try report(request)
    guard case .report(let history, let html?, nil) = response else {
      Issue.record("expected a report and its page")
      return
    }
    #expect(history.runs == 2)
    #expect(history.failedRunCount == 2)
    #expect(FileManager.default.fileExists(atPath: html))
    #expect(response.printout(TextFormat()).outText.hasSuffix("report: \(html)\n"))
  }

  @Test func traceAndLogsReadTheRecordedRun() throws {
    try recordRun()
    guard case .trace(let timeline) = try trace(TraceRequest(root: tree.url, environment: environment)) else {
      Issue.record("expected a trace")
      return
    }
    #expect(Set(timeline.lanes.map(\.lane)) == ["build", "test"])
    #expect(timeline.verdict == "fail")
    guard case .log(let data) = try logs(LogsRequest(root: tree.url, environment: environment, lane: "test")) else {
      Issue.record("expected a log")
      return
    }
    #expect(String(decoding: data, as: UTF8.self).contains("error: boom"))
    var missing = TraceRequest(root: tree.url, environment: environment)
    missing.run = "nope"
    #expect { try trace(missing) } throws: { ($0 as? CommandFailure)?.message == "duet trace: error: no run 'nope' in the history" }
  }

  @Test func pruneKeepsTheNewestAndMergeImports() throws {
    try recordRun()
    try recordRun()
    var prune = HistoryPruneRequest(root: tree.url, environment: environment)
    prune.keep = 1
    guard case .pruned(let runs, _, 1, []) = try historyPrune(prune) else {
      Issue.record("expected a prune")
      return
    }
    #expect(runs == 1)
    let other = try TemporaryFolder()
    let otherStore = other.url.appendingPathComponent("other.sqlite").path
    var otherEnvironment = environment
    otherEnvironment["DUET_HISTORY"] = otherStore
    try recordRun(environment: otherEnvironment)
    let merged = try historyMerge(HistoryMergeRequest(root: tree.url, environment: environment, files: [("other.sqlite", otherStore)]))
    #expect(merged.exitCode == 0)
    #expect(merged.printout(TextFormat()).outText == "duet history merge: other.sqlite: 1 new run(s), 2 step(s)\n")
  }
}
