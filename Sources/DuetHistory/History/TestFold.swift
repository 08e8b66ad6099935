import DuetModel
import DuetTestReports
import DuetSupport

extension FlakyRanking where Key == TestKey {
  /// The report over the store's last `last` runs (those since `since` only,
  /// and only lane `lane`'s tests when one is named), as of `now`.
  package static func compute(store: HistoryStore, last: Int, since: Double?, lane: String? = nil, now: Double) throws(HistoryError) -> TestFlakyReport {
    let (fold, runs) = try TestFold.scan(store, last: last, since: since, lane: lane)
    var report = fold.evidence.ranking(keys: fold.keys, runsInWindow: runs, now: now)
    for index in report.entries.indices {
      report.entries[index].lastFailure = fold.identityIndex[report.entries[index].key.identity].flatMap { fold.lastFailure[$0] }
    }
    try report.addOrigins(store, last: last, since: since)
    return report
  }
}

extension StatsRanking where Key == TestKey {
  /// The report over the store's last `last` runs, only lane `lane`'s tests when one is named.
  package static func compute(store: HistoryStore, last: Int, lane: String? = nil) throws(HistoryError) -> TestStatsReport {
    let (fold, runs) = try TestFold.scan(store, last: last, since: nil, lane: lane)
    return fold.durations.ranking(keys: fold.keys, runsInWindow: runs)
  }
}

/// The test cases of the window, run by run, folded into lane runs per test
/// identity and attempt, for the flaky rule (`evidence`) and the durations
/// (`durations`) alike: the rule that proves a lane flaky (`FlakyRanking`)
/// proves a test flaky. For one test (`TestIdentity`: lane, report file, suite,
/// name, position) and one input fingerprint, the store holds both a pass and a
/// failure of it, or it failed on one attempt and passed on a later attempt of
/// the same run. A failure or an error counts against it; a skip is no evidence.
///
/// Each test's cases in one run are folded per attempt into one `LaneTally` with
/// the lane's fingerprint: a namesake in another report (Gradle's other
/// variant) or at another position is another test, and nothing within one
/// attempt is a retry.
struct TestFold {
  var evidence = FlakyEvidence()
  var durations = StatsDurations()
  /// Each test's identity, indexed as `LaneTally.lane`.
  var identities: [TestIdentity] = []
  var identityIndex: [TestIdentity: Int] = [:]
  var fingerprintIndex: [String: Int] = [:]
  var lastFailure: [Int: String] = [:]
  /// The test being folded in this run, and its attempts so far.
  var pending: LaneTally?
  /// The attempt of `pending` being gathered: its number, whether any of its
  /// cases failed, and their seconds. Several rows of one identity in one
  /// attempt (a store merged from elsewhere) are one attempt, never a retry.
  var attempt: (number: Int, failed: Bool, seconds: Double)?

  /// The columns that name a case's report and position: read as stored, or,
  /// in a store from before schema 5 (opened read-only, not migrated),
  /// numbered from the order the cases were read in.
  static func identityColumns(_ store: HistoryStore) throws -> String {
    try store.hasColumn("ordinal", in: "test_cases")
      ? "report, ordinal"
      : "'' AS report, ROW_NUMBER() OVER (PARTITION BY run_id, lane, attempt, suite, name ORDER BY seq) - 1 AS ordinal"
  }

  /// The store's last `last` runs (those since `since` only; lane `lane`'s tests only), and how many runs that is.
  static func scan(_ store: HistoryStore, last: Int, since: Double?, lane: String?) throws(HistoryError) -> (TestFold, Int) {
    do {
      var fold = TestFold()
      let runs = try store.windowRuns(last: last, since: since)
      if try store.hasTable("test_cases") {
        let statement = try store.db.prepare("""
          SELECT t.lane, t.report, t.suite, t.name, t.ordinal, t.outcome, s.fingerprint, t.message, t.duration, t.attempt
          FROM (SELECT run_id, lane, attempt, seq, suite, name, outcome, duration, message, \(try identityColumns(store))
                FROM test_cases WHERE run_id = ?1 \(lane == nil ? "" : "AND lane = ?2")) t
          LEFT JOIN steps s ON s.run_id = t.run_id AND s.lane = t.lane AND s.attempt = t.attempt
          ORDER BY t.lane, t.report, t.suite, t.name, t.ordinal, t.attempt, t.seq
          """)
        for run in runs {
          try statement.bind([.text(run.id)] + (lane.map { [.text($0)] } ?? []))
          while try statement.step() { fold.add(statement.row, started: run.started) }
          fold.endRun()
        }
      }
      return (fold, runs.count)
    } catch {
      throw HistoryError.from(error, path: store.path)
    }
  }

  mutating func add(_ row: [SQLiteValue], started: Double) {
    guard row.count == 10, let lane = row[0].text, let report = row[1].text, let suite = row[2].text, let name = row[3].text,
          let ordinal = row[4].int, let number = row[9].int,
          let outcome = row[5].text.flatMap(TestOutcome.init(rawValue:)), outcome != .skipped else { return }
    let identity = TestIdentity(lane: lane, report: report, suite: suite, name: name, ordinal: ordinal)
    let index = identityIndex[identity] ?? {
      identities.append(identity)
      identityIndex[identity] = identities.count - 1
      return identities.count - 1
    }()
    if pending?.lane != index {
      endRun()
      let fingerprint = row[6].text.map { text in
        fingerprintIndex[text] ?? { fingerprintIndex[text] = fingerprintIndex.count; return fingerprintIndex.count - 1 }()
      }
      pending = LaneTally(lane: index, started: started, fingerprint: fingerprint, failed: 0, anyPassed: false, finalPassed: false, seconds: 0, lanePassed: false)
    }
    let seconds = StoredNumber.duration(row[8].double)
    if let open = attempt, open.number == number {
      attempt = (number, open.failed || outcome.failed, open.seconds + seconds)
    } else {
      endAttempt()
      attempt = (number, outcome.failed, seconds)
    }
    if outcome.failed, let message = row[7].text { lastFailure[index] = message }
  }

  /// Counts the attempt being gathered into the test's lane run.
  mutating func endAttempt() {
    guard let done = attempt else { return }
    pending?.add(done.failed ? .failure : .pass, seconds: done.seconds, lanePassed: !done.failed)
    attempt = nil
  }

  /// Hands the test being folded to the evidence.
  mutating func endRun() {
    endAttempt()
    if let done = pending {
      evidence.add(done)
      durations.add(done)
    }
    pending = nil
  }

  /// Each test's key, indexed as `LaneTally.lane`: its identity and what tells it from its namesakes.
  var keys: [TestKey] {
    let qualifiers = TestIdentity.qualifiers(identities)
    return identities.map { TestKey(identity: $0, qualifier: qualifiers[$0] ?? "") }
  }
}

extension HistoryStore {
  /// The runs of a report window, oldest first: the newest `last`, those since `since` only.
  func windowRuns(last: Int, since: Double?) throws -> [(id: String, started: Double)] {
    let rows = try db.query("""
      SELECT id, started FROM runs \(since == nil ? "" : "WHERE started >= ?2")
      ORDER BY started DESC, id DESC LIMIT ?1
      """, since.map { [.integer(Int64(last)), .real($0)] } ?? [.integer(Int64(last))])
    return rows.reversed().compactMap { row in row.first?.text.map { ($0, StoredNumber.time(row.count > 1 ? row[1].double : nil)) } }
  }

  /// Whether the store has `table` (one opened read-only may predate its migration).
  func hasTable(_ table: String) throws -> Bool {
    try !db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]).isEmpty
  }
}
