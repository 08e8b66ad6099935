import DuetModel
import DuetTestReports
import DuetSupport

/// Which test cases are flaky, by the rule that proves a lane flaky
/// (`FlakyReport`): for one lane and one input fingerprint, the store holds both
/// a pass and a failure of the test, or the test failed on one attempt and
/// passed on a later attempt of the same run. A failure or an error counts
/// against it; a skip is no evidence. Ranked, and recovered after 7 days, as lanes are.
///
/// Each (lane, suite, name) is folded as a lane is: its attempts in one run
/// make one `LaneRun` with the lane's fingerprint, fed to the same `Evidence`.
package struct TestFlakyReport: Sendable {
  package static let definition = "flaky test = one test of one lane with both a pass and a failure for one input fingerprint, or a failure that passed on a later attempt of the run"

  package struct Entry: Sendable, Equatable {
    package var lane: String
    package var suite: String
    package var name: String
    /// Runs in which the test passed or failed.
    package var runs: Int
    /// Failed or errored attempts.
    package var failures: Int
    package var flakyFingerprints: Int
    package var flips: Int
    package var retriesPassed: Int
    package var lastSeen: Double
    package var recovered: Bool
    /// The first line of its newest failure's message, if it had one.
    package var lastFailure: String?

    /// `suite.name`, as a person names the test.
    package var test: String { suite.isEmpty ? name : "\(suite).\(name)" }
  }

  package var entries: [Entry]
  package var runsInWindow: Int
  /// How many tests (lane, suite, name) passed or failed in the window, flaky or not:
  /// 0 when no lane of it has `reports:`.
  package var testsSeen = 0

  package var flaky: [Entry] { entries.filter { !$0.recovered } }
  package var recovered: [Entry] { entries.filter(\.recovered) }

  /// The report over the store's last `last` runs (those since `since` only,
  /// and only lane `lane`'s tests when one is named), as of `now`.
  package static func compute(store: HistoryStore, last: Int, since: Double?, lane: String? = nil, now: Double) throws(HistoryError) -> TestFlakyReport {
    let (fold, runs) = try TestFold.scan(store, last: last, since: since, lane: lane)
    return fold.report(runsInWindow: runs, now: now)
  }
}

/// The test cases of the window, run by run, folded into lane runs per test,
/// for the flaky rule (`evidence`) and the durations (`durations`) alike.
struct TestFold {
  var evidence = FlakyReport.Evidence()
  var durations = StatsReport.Durations()
  /// Each test's key, `lane NUL suite NUL name`, indexed as `LaneRun.lane`.
  var keys: [String] = []
  var keyIndex: [String: Int] = [:]
  var fingerprintIndex: [String: Int] = [:]
  var lastFailure: [Int: String] = [:]
  /// The test being folded in this run, and its attempts so far.
  var pending: LaneRun?

  /// The store's last `last` runs (those since `since` only; lane `lane`'s tests only), and how many runs that is.
  static func scan(_ store: HistoryStore, last: Int, since: Double?, lane: String?) throws(HistoryError) -> (TestFold, Int) {
    do {
      var fold = TestFold()
      let runs = try store.windowRuns(last: last, since: since)
      if try store.hasTable("test_cases") {
        let statement = try store.db.prepare("""
          SELECT t.lane, t.suite, t.name, t.outcome, s.fingerprint, t.message, t.duration FROM test_cases t
          LEFT JOIN steps s ON s.run_id = t.run_id AND s.lane = t.lane AND s.attempt = t.attempt
          WHERE t.run_id = ?1 \(lane == nil ? "" : "AND t.lane = ?2")
          ORDER BY t.lane, t.suite, t.name, t.attempt, t.seq
          """)
        for run in runs {
          try statement.bind([.text(run.id)] + (lane.map { [.text($0)] } ?? []))
          while try statement.step() { fold.add(statement.row, started: run.started) }
          fold.endRun()
        }
      }
      return (fold, runs.count)
    } catch let error as HistoryError {
      throw error
    } catch let error as SQLiteError {
      throw .sqlite(store.path, error)
    } catch {
      throw .sqlite(store.path, SQLiteError(code: 1, message: "\(error)"))
    }
  }

  mutating func add(_ row: [SQLiteValue], started: Double) {
    guard row.count == 7, let lane = row[0].text, let suite = row[1].text, let name = row[2].text,
          let outcome = row[3].text.flatMap(TestOutcome.init(rawValue:)), outcome != .skipped else { return }
    let key = "\(lane)\u{0}\(suite)\u{0}\(name)"
    let index = keyIndex[key] ?? { keys.append(key); keyIndex[key] = keys.count - 1; return keys.count - 1 }()
    if pending?.lane != index {
      endRun()
      let fingerprint = row[4].text.map { text in
        fingerprintIndex[text] ?? { fingerprintIndex[text] = fingerprintIndex.count; return fingerprintIndex.count - 1 }()
      }
      pending = LaneRun(lane: index, started: started, fingerprint: fingerprint, failed: 0, anyPassed: false, finalPassed: false, seconds: 0, lanePassed: false)
    }
    pending!.add(outcome.failed ? .failure : .pass, seconds: StoredNumber.duration(row[6].double), lanePassed: !outcome.failed)
    if outcome.failed, let message = row[5].text { lastFailure[index] = message }
  }

  /// Hands the test being folded to the evidence.
  mutating func endRun() {
    if let done = pending {
      evidence.add(done)
      durations.add(done)
    }
    pending = nil
  }

  /// A test's key split back into lane, suite and name.
  static func parts(_ key: String) -> (lane: String, suite: String, name: String) {
    let parts = key.split(separator: "\u{0}", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    return (parts[0], parts.count > 1 ? parts[1] : "", parts.count > 2 ? parts[2] : "")
  }

  func report(runsInWindow: Int, now: Double) -> TestFlakyReport {
    let lanes = evidence.report(lanes: keys, runsInWindow: runsInWindow, now: now)
    let entries = lanes.entries.map { entry -> TestFlakyReport.Entry in
      let parts = TestFold.parts(entry.lane)
      return TestFlakyReport.Entry(lane: parts.lane, suite: parts.suite, name: parts.name,
                                   runs: entry.runs, failures: entry.failures, flakyFingerprints: entry.flakyFingerprints, flips: entry.flips,
                                   retriesPassed: entry.retriesPassed, lastSeen: entry.lastSeen, recovered: entry.recovered,
                                   lastFailure: keyIndex[entry.lane].flatMap { lastFailure[$0] })
    }
    return TestFlakyReport(entries: entries, runsInWindow: runsInWindow, testsSeen: keys.count)
  }
}

extension HistoryStore {
  /// The runs of a report window, oldest first: the newest `last`, those since `since` only.
  package func windowRuns(last: Int, since: Double?) throws -> [(id: String, started: Double)] {
    let rows = try db.query("""
      SELECT id, started FROM runs \(since == nil ? "" : "WHERE started >= ?2")
      ORDER BY started DESC, id DESC LIMIT ?1
      """, since.map { [.integer(Int64(last)), .real($0)] } ?? [.integer(Int64(last))])
    return rows.reversed().compactMap { row in row.first?.text.map { ($0, StoredNumber.time(row.count > 1 ? row[1].double : nil)) } }
  }

  /// Whether the store has `table` (one opened read-only may predate its migration).
  package func hasTable(_ table: String) throws -> Bool {
    try !db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]).isEmpty
  }
}
