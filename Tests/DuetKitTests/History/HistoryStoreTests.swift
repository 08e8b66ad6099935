import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetTestReports
@testable import DuetModel
@testable import DuetSupport
@testable import DuetHistory

@Suite("History store")
struct HistoryStoreTests {
  /// A run id as verify makes them, different for each test id.
  static func logID(_ id: String) -> String {
    String(format: "20261202-181700-%06x", id.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFFFF })
  }

  func sample(_ id: String, at time: Double, outcome: RunOutcome = .pass, fingerprint: String? = "fp") -> (RunRow, [StepRow]) {
    let logID = HistoryStoreTests.logID(id)
    let run = RunRow(id: id, logID: logID, started: time, ended: time + 2, command: "duet verify", root: "/t", gitCommit: "abc",
                     host: "h", outcome: outcome, jobs: 2, duetVersion: "test")
    let step = StepRow(runID: id, lane: "kotlin", attempt: 1, started: time, duration: 1.5, attemptOutcome: AttemptOutcome(rawValue: outcome.rawValue),
                       laneOutcome: LaneOutcome(rawValue: outcome.rawValue), exitCode: outcome == .pass ? 0 : 1, fingerprint: fingerprint, logPath: ".duet/logs/\(logID)/kotlin.log")
    return (run, [step])
  }

  /// Runs round-trip through the store, newest first, with the schema migrated to the current version.
  @Test func recordsAndReads() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("h.sqlite").path
    let store = try HistoryStore(path: path)
    let (run1, steps1) = sample("a", at: 100)
    let (run2, steps2) = sample("b", at: 200, outcome: .fail, fingerprint: "fp2")
    try store.record(run1, steps: steps1)
    try store.record(run2, steps: steps2)
    #expect(try store.recentRuns(limit: 10).map(\.id) == ["b", "a"])
    #expect(try store.steps(ofRuns: ["a"]) == steps1)
    #expect(try store.lastDurations(lanes: ["kotlin", "other"]) == ["kotlin": 1.5])
    #expect(try store.lastVerdicts(lanes: ["kotlin", "other"]) == ["kotlin": LastVerdict(outcome: .fail, fingerprint: "fp2")])
    let reopened = try HistoryStore(path: path)
    #expect(try reopened.runCount() == 2)
    #expect(try reopened.db.query("PRAGMA user_version").first?.first?.int == HistoryStore.schemaVersion)
    #expect(try reopened.db.query("PRAGMA journal_mode").first?.first?.text == "wal")
  }

  /// The cache reads a lane's newest verdict with the parts of its fingerprint, when the parts kept are of that fingerprint.
  @Test func lastVerdictCarriesItsParts() throws {
    let folder = try TemporaryFolder()
    let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
    var parts = FingerprintParts(command: "c", dir: ".", env: "e", duet: nil)
    parts.files = [.init(path: "src/a b.swift", sha256: "11")]
    let (run, steps) = sample("a", at: 100, fingerprint: parts.fingerprint)
    try store.record(run, steps: steps, parts: ["kotlin": parts])
    #expect(try store.lastVerdicts(lanes: ["kotlin"])["kotlin"] == LastVerdict(outcome: .pass, fingerprint: parts.fingerprint, parts: parts))
    let (later, laterSteps) = sample("b", at: 200, fingerprint: "other")
    try store.record(later, steps: laterSteps)
    #expect(try store.lastVerdicts(lanes: ["kotlin"])["kotlin"] == LastVerdict(outcome: .pass, fingerprint: "other", parts: nil))
  }

  /// Merging twice imports each run once.
  @Test func mergeIsIdempotent() throws {
    let folder = try TemporaryFolder()
    let shard = try HistoryStore(path: folder.url.appendingPathComponent("shard.sqlite").path)
    let (run, steps) = sample("shard-run", at: 50)
    try shard.record(run, steps: steps)
    let main = try HistoryStore(path: folder.url.appendingPathComponent("main.sqlite").path)
    let first = try main.merge(from: shard.path)
    let second = try main.merge(from: shard.path)
    #expect(first.runs == 1 && first.steps == 1)
    #expect(second.runs == 0 && second.steps == 0)
    #expect(try main.runCount() == 1)
  }

  /// Issue 40: test cases travel with their runs when stores are merged (a CI
  /// shard's store into a laptop's), and go when their runs are pruned; a store
  /// holding a test case duet would never write (an unknown outcome, a negative
  /// duration) is refused by name, as a step's would be.
  @Test func testCasesAreMergedCheckedAndPruned() throws {
    let folder = try TemporaryFolder()
    let shard = try HistoryStore(path: folder.url.appendingPathComponent("shard.sqlite").path)
    let (run, steps) = sample("shard-run", at: 50)
    let tests = [TestCaseRow(runID: "shard-run", lane: "kotlin", attempt: 1, suite: "a.B", name: "c", outcome: .fail, duration: 0.5, message: "boom"),
                 TestCaseRow(runID: "shard-run", lane: "kotlin", attempt: 1, suite: "a.B", name: "c", outcome: .pass, duration: 0.25)]
    try shard.record(run, steps: steps, tests: tests)
    let main = try HistoryStore(path: folder.url.appendingPathComponent("main.sqlite").path)
    _ = try main.merge(from: shard.path)
    _ = try main.merge(from: shard.path)
    let rows = try main.db.query("SELECT run_id, seq, outcome, duration, message FROM test_cases ORDER BY seq")
    #expect(rows == [[.text("shard-run"), .integer(0), .text("fail"), .real(0.5), .text("boom")],
                     [.text("shard-run"), .integer(1), .text("pass"), .real(0.25), .null]])
    _ = try main.prune(keep: 0)
    #expect(try main.db.query("SELECT count(*) FROM test_cases").first?.first?.int == 0)

    for (column, value) in [("outcome", "'flaky'"), ("duration", "-1")] {
      let bad = try HistoryStore(path: folder.url.appendingPathComponent("bad-\(column).sqlite").path)
      let (badRun, badSteps) = sample("bad-run", at: 60)
      try bad.record(badRun, steps: badSteps, tests: tests.map { var row = $0; row.runID = "bad-run"; return row })
      try bad.db.execute("UPDATE test_cases SET \(column) = \(value)")
      #expect { try main.merge(from: bad.path) } throws: { "\($0)".contains("test \(column)") }
    }
    // Schema 5's columns from a store made elsewhere: a position, a report path, an excuse flag duet never writes.
    for (table, column, value, named) in [("test_cases", "ordinal", "-1", "test position"), ("test_cases", "ordinal", "99999999", "test position"),
                                          ("test_cases", "report", "zeroblob(10)", "test report"), ("test_cases", "report", "printf('%.5000c', 'x')", "test report"),
                                          ("steps", "excused", "7", "excused")] {
      let bad = try HistoryStore(path: folder.url.appendingPathComponent("bad-\(column)-\(value.count).sqlite").path)
      let (badRun, badSteps) = sample("bad-run", at: 60)
      try bad.record(badRun, steps: badSteps, tests: tests.map { var row = $0; row.runID = "bad-run"; return row })
      try bad.db.execute("UPDATE \(table) SET \(column) = \(value)")
      #expect { try main.merge(from: bad.path) } throws: { "\($0)".contains(named) }
    }
  }

  /// A file that is not a store is refused for merging, and moved aside (not deleted) when recording.
  @Test func corruptStores() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("h.sqlite").path
    try folder.write("h.sqlite", String(repeating: "not a database at all ", count: 400))
    let main = try HistoryStore(path: folder.url.appendingPathComponent("main.sqlite").path)
    #expect(throws: HistoryError.self) { try main.merge(from: path) }
    let opened = HistoryRecorder.open(path: path)
    #expect(opened.store != nil)
    #expect(opened.warnings.count == 1 && opened.warnings[0].contains("moved it to"))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(names.contains { $0.hasPrefix("h.sqlite.corrupt-") })
  }

  /// A store path that is a device (here a link to /dev/null, as
  /// `DUET_HISTORY=/dev/null` would be) is not opened, written or moved aside:
  /// the run is not recorded, with a warning, and the link stays (issue 27).
  @Test func deviceIsNotAStore() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("h.sqlite").path
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")
    let opened = HistoryRecorder.open(path: path)
    #expect(opened.store == nil)
    #expect(opened.warnings.count == 1 && opened.warnings[0].contains("not a store file"), "\(opened.warnings)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "/dev/null")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["h.sqlite"])
  }

  /// Pruning keeps the newest runs and returns the log folders of those dropped.
  @Test func prune() throws {
    let folder = try TemporaryFolder()
    let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
    for i in 0..<5 {
      let (run, steps) = sample("r\(i)", at: Double(i))
      try store.record(run, steps: steps)
    }
    let dropped = try store.prune(keep: 2)
    #expect(Set(dropped) == Set(["r0", "r1", "r2"].map(HistoryStoreTests.logID)))
    #expect(try store.recentRuns(limit: 10).map(\.id) == ["r4", "r3"])
    #expect(try store.steps(ofRuns: ["r0"]).isEmpty)
  }

  /// A store from a newer duet is refused by name rather than misread.
  @Test func newerSchemaIsRefused() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("h.sqlite").path
    _ = try HistoryStore(path: path)
    let raw = try SQLiteDatabase(path: path)
    try raw.execute("PRAGMA user_version = 99")
    #expect(throws: HistoryError.self) { try HistoryStore(path: path) }
  }

  /// Rows decode to the outcome enums; an outcome this duet never writes (a
  /// newer duet's, or a hostile store's) leaves the run out and reads as no
  /// outcome on a step, instead of reaching a report as raw text.
  @Test func rowsDecodeToOutcomeEnums() {
    func run(_ outcome: String) -> [SQLiteValue] {
      [.text("r"), .text("log"), .real(1), .real(2), .text("duet verify"), .text("/t"), .null, .text("h"), .text(outcome), .integer(2), .text("t")]
    }
    #expect(HistoryStore.runRow(run("fail"))?.outcome == .fail)
    #expect(HistoryStore.runRow(run("interrupted"))?.outcome == .interrupted)
    #expect(HistoryStore.runRow(run("\u{1B}[2Jpwned")) == nil)
    func step(_ attempt: String, _ lane: String) -> [SQLiteValue] {
      [.text("r"), .text("kotlin"), .integer(1), .real(1), .real(2), .text(attempt), .text(lane), .integer(1), .null, .null]
    }
    let known = HistoryStore.stepRow(step("timeout", "flaky"))
    #expect(known?.attemptOutcome == .timeout)
    #expect(known?.laneOutcome == .flaky)
    let unknown = HistoryStore.stepRow(step("exploded", "vanished"))
    #expect(unknown?.attemptOutcome == nil)
    #expect(unknown?.laneOutcome == nil)
  }

  /// An attempt outcome duet never writes (a newer duet's, a hostile store's)
  /// is left out by the streamed reports as by the rows: both ways of reading
  /// a store give the same flaky and stats answers.
  @Test func unknownAttemptOutcomesCountTheSameStreamedOrRead() throws {
    let folder = try TemporaryFolder()
    let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
    for (id, time, outcome) in [("a", 100.0, RunOutcome.pass), ("b", 200, .fail), ("c", 300, .pass)] {
      let (run, steps) = sample(id, at: time, outcome: outcome)
      try store.record(run, steps: steps)
    }
    try store.db.execute("UPDATE steps SET attempt_outcome = 'exploded' WHERE run_id = 'b'")
    let runs = try store.recentRuns(limit: 10)
    let steps = try store.steps(ofRuns: runs.map(\.id))
    let streamed = try FlakyReport.compute(store: store, last: 10, since: nil, now: 400)
    let read = FlakyReport.compute(runs: runs, steps: steps, now: 400)
    #expect(streamed.entries == read.entries)
    #expect(try StatsReport.compute(store: store, last: 10).entries == StatsReport.compute(runs: runs, steps: steps).entries)
  }
}
