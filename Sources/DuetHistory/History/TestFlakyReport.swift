import DuetModel
import DuetTestReports
import DuetSupport

/// Which test cases are flaky, by the rule that proves a lane flaky
/// (`FlakyReport`): for one test (`TestIdentity`: lane, report file, suite, name,
/// position) and one input fingerprint, the store holds both a pass and a
/// failure of it, or it failed on one attempt and passed on a later attempt of
/// the same run. A failure or an error counts against it; a skip is no evidence.
/// Ranked, and recovered after 7 days, as lanes are.
///
/// Each test's cases in one run are folded per attempt into one `LaneRun` with
/// the lane's fingerprint, fed to the same `Evidence`: a namesake in another
/// report (Gradle's other variant) or at another position is another test, and
/// nothing within one attempt is a retry.
package struct TestFlakyReport: Sendable {
  package static let definition = "flaky test = one test (lane, report, name, position) with both a pass and a failure for one input fingerprint, or a failure that passed on a later attempt of the run"

  package struct Entry: Sendable, Equatable {
    var identity: TestIdentity
    /// What tells it from a namesake of its lane (`testDebugUnitTest`, `#2`); "" when its name is its own.
    var qualifier = ""
    /// Runs in which the test passed or failed.
    package var runs: Int
    /// Failed or errored attempts.
    package var failures: Int
    package var flakyFingerprints: Int
    package var flips: Int
    package var retriesPassed: Int
    package var lastSeen: Double
    var recovered: Bool
    /// The first line of its newest failure's message, if it had one.
    package var lastFailure: String?
    /// Where its failures happened, when the window holds runs from more than one place.
    package var failedOn: [String] = []

    init(identity: TestIdentity, qualifier: String = "", runs: Int, failures: Int, flakyFingerprints: Int, flips: Int,
                 retriesPassed: Int, lastSeen: Double, recovered: Bool, lastFailure: String?) {
      self.identity = identity
      self.qualifier = qualifier
      self.runs = runs
      self.failures = failures
      self.flakyFingerprints = flakyFingerprints
      self.flips = flips
      self.retriesPassed = retriesPassed
      self.lastSeen = lastSeen
      self.recovered = recovered
      self.lastFailure = lastFailure
    }

    /// A test read from `report` ("" when it does not matter), first of its name there.
    init(lane: String, suite: String, name: String, report: String = "", runs: Int, failures: Int, flakyFingerprints: Int, flips: Int,
                 retriesPassed: Int, lastSeen: Double, recovered: Bool, lastFailure: String?) {
      self.init(identity: TestIdentity(lane: lane, report: report, suite: suite, name: name, ordinal: 0), runs: runs, failures: failures,
                flakyFingerprints: flakyFingerprints, flips: flips, retriesPassed: retriesPassed, lastSeen: lastSeen,
                recovered: recovered, lastFailure: lastFailure)
    }

    package var lane: String { identity.lane }
    var suite: String { identity.suite }
    var name: String { identity.name }
    /// `suite.name`, as a person names the test (and a quarantine entry matches it).
    package var test: String { identity.fullName }
    /// The name with what tells it from its namesakes: `app.CartTest.adds [testDebugUnitTest]`.
    package var label: String { identity.label(qualifier: qualifier) }
  }

  var entries: [Entry]
  package var runsInWindow: Int
  /// The window's runs by where they came from, most first.
  package var origins: [OriginTally] = []
  /// How many tests passed or failed in the window, flaky or not:
  /// 0 when no lane of it has `reports:`.
  var testsSeen = 0

  package var flaky: [Entry] { entries.filter { !$0.recovered } }
  package var recovered: [Entry] { entries.filter(\.recovered) }

  /// The report over the store's last `last` runs (those since `since` only,
  /// and only lane `lane`'s tests when one is named), as of `now`.
  package static func compute(store: HistoryStore, last: Int, since: Double?, lane: String? = nil, now: Double) throws(HistoryError) -> TestFlakyReport {
    let (fold, runs) = try TestFold.scan(store, last: last, since: since, lane: lane)
    var report = fold.report(runsInWindow: runs, now: now)
    report.origins = try store.windowOrigins(last: last, since: since)
    if report.origins.count > 1 {
      for index in report.entries.indices {
        let entry = report.entries[index]
        report.entries[index].failedOn = try store.failureOrigins(lane: entry.lane, test: entry.identity, last: last, since: since)
      }
    }
    return report
  }
}

/// The test cases of the window, run by run, folded into lane runs per test
/// identity and attempt, for the flaky rule (`evidence`) and the durations
/// (`durations`) alike.
struct TestFold {
  var evidence = FlakyReport.Evidence()
  var durations = StatsReport.Durations()
  /// Each test's identity, indexed as `LaneRun.lane`.
  var identities: [TestIdentity] = []
  var identityIndex: [TestIdentity: Int] = [:]
  var fingerprintIndex: [String: Int] = [:]
  var lastFailure: [Int: String] = [:]
  /// The test being folded in this run, and its attempts so far.
  var pending: LaneRun?
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
      pending = LaneRun(lane: index, started: started, fingerprint: fingerprint, failed: 0, anyPassed: false, finalPassed: false, seconds: 0, lanePassed: false)
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

  func report(runsInWindow: Int, now: Double) -> TestFlakyReport {
    // Named so that ties sort by lane, suite and name, then report and position.
    let names = identities.map { "\($0.lane)\u{0}\($0.suite)\u{0}\($0.name)\u{0}\($0.report)\u{0}\(String(repeating: "0", count: max(0, 10 - String($0.ordinal).count)))\($0.ordinal)" }
    let position = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    let lanes = evidence.report(lanes: names, runsInWindow: runsInWindow, now: now)
    var entries = lanes.entries.map { entry -> TestFlakyReport.Entry in
      let index = position[entry.lane]!
      return TestFlakyReport.Entry(identity: identities[index], runs: entry.runs, failures: entry.failures,
                                   flakyFingerprints: entry.flakyFingerprints, flips: entry.flips, retriesPassed: entry.retriesPassed,
                                   lastSeen: entry.lastSeen, recovered: entry.recovered, lastFailure: lastFailure[index])
    }
    let qualifiers = TestIdentity.qualifiers(identities)
    for index in entries.indices { entries[index].qualifier = qualifiers[entries[index].identity] ?? "" }
    return TestFlakyReport(entries: entries, runsInWindow: runsInWindow, testsSeen: identities.count)
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
  package func hasTable(_ table: String) throws -> Bool {
    try !db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]).isEmpty
  }
}
