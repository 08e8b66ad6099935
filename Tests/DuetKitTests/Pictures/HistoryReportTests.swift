import DuetRun
import Foundation
import Testing

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
}
