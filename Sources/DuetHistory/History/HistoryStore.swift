import Foundation
import DuetModel
import DuetTestReports
import DuetSupport

/// What went wrong with the history store; recording turns these into warnings.
package enum HistoryError: Error, CustomStringConvertible, Sendable {
  case sqlite(String, SQLiteError)
  case newerSchema(String, Int)
  case notAStore(String, TerminalLine)
  /// A merged store holding a row duet would not write (a log path out of its run's folder).
  case unsafeRow(String, TerminalLine)
  /// The store's own folder is refused by the path guard (`.duet` a link or a file).
  case refusedFolder(String, FileError)

  package var description: String { line.text }

  /// The error as a terminal line, the store's path escaped as it goes in: it
  /// comes from `DUET_HISTORY` or `history merge FILE`, and a `\n::error…` in
  /// it must not start a line of its own in a CI log. A reason (`why`) is a
  /// terminal line already, its row's text escaped where it was made.
  var line: TerminalLine {
    switch self {
    case .sqlite(let path, let error): return "\(path): \(error)"
    case .newerSchema(let path, let version): return "\(path) was written by a newer duet (schema \(version)); upgrade duet"
    case .notAStore(let path, let why): return "\(path) is not a duet history store: \(why)"
    case .unsafeRow(let path, let why): return "\(path): refusing the whole store, nothing merged from it: \(why)"
    case .refusedFolder(let path, let error): return "\(path): \(error)"
    }
  }

  var isCorrupt: Bool {
    if case .sqlite(_, let error) = self { return error.isCorrupt }
    return false
  }

  var isBusy: Bool {
    if case .sqlite(_, let error) = self { return error.isBusy }
    return false
  }
}

/// `.duet/history.sqlite`: every run and every attempt, for flaky and slow-step
/// reports, critical-path weights and the input cache.
///
/// WAL journaling (DELETE where WAL is refused), `synchronous=NORMAL`, a busy
/// timeout, writes in `BEGIN IMMEDIATE`, and `user_version` migrations that are
/// only ever appended.
package final class HistoryStore {
  package let path: String
  let db: SQLiteDatabase

  /// Schema migrations; entry `i` takes `user_version` from `i` to `i + 1`. Append, never edit.
  static let migrations: [String] = [
    """
    CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      log_id TEXT NOT NULL,
      started REAL NOT NULL,
      ended REAL NOT NULL,
      command TEXT NOT NULL,
      root TEXT NOT NULL,
      git_commit TEXT,
      host TEXT NOT NULL,
      outcome TEXT NOT NULL,
      jobs INTEGER NOT NULL,
      duet_version TEXT NOT NULL
    );
    CREATE INDEX runs_by_start ON runs(started, id);
    CREATE TABLE steps (
      run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      lane TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      started REAL NOT NULL,
      duration REAL NOT NULL,
      attempt_outcome TEXT,
      lane_outcome TEXT,
      exit_code INTEGER,
      fingerprint TEXT,
      log_path TEXT,
      PRIMARY KEY (run_id, lane, attempt)
    ) WITHOUT ROWID;
    CREATE INDEX steps_by_lane ON steps(lane, started, attempt_outcome, lane_outcome, fingerprint, duration);
    """,
    // What each lane's fingerprint was made of on its newest run, so the next
    // run can say why a lane is not cached. One row per lane, replaced each run.
    """
    CREATE TABLE lane_inputs (
      lane TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      parts TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    // The conditions each step was judged under (`PassConditions`: strict,
    // partial, inputs moved while it ran), so a pass serves only runs it covers.
    "ALTER TABLE steps ADD COLUMN judged TEXT;",
    // Issue 40: the test cases of each attempt's JUnit reports (`reports:`),
    // `seq` their order in the attempt's reports, so a name may repeat.
    """
    CREATE TABLE test_cases (
      run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      lane TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      suite TEXT NOT NULL,
      name TEXT NOT NULL,
      outcome TEXT NOT NULL,
      duration REAL NOT NULL,
      message TEXT,
      PRIMARY KEY (run_id, lane, attempt, seq)
    ) WITHOUT ROWID;
    """,
    // Issue 50: a test's identity is where it ran (`TestIdentity`): the report
    // file it came from and its position among same-named cases of its attempt,
    // numbered here for the rows written before (their report unknown, "").
    // And the attempts the quarantine excused (1), recorded as the failure
    // they were, so `stats` counts them apart from passes.
    """
    ALTER TABLE test_cases ADD COLUMN report TEXT NOT NULL DEFAULT '';
    ALTER TABLE test_cases ADD COLUMN ordinal INTEGER NOT NULL DEFAULT 0;
    UPDATE test_cases SET ordinal = numbered.ordinal FROM (
      SELECT run_id, lane, attempt, seq,
             ROW_NUMBER() OVER (PARTITION BY run_id, lane, attempt, suite, name ORDER BY seq) - 1 AS ordinal
      FROM test_cases
    ) AS numbered
    WHERE test_cases.run_id = numbered.run_id AND test_cases.lane = numbered.lane
      AND test_cases.attempt = numbered.attempt AND test_cases.seq = numbered.seq AND numbered.ordinal > 0;
    ALTER TABLE steps ADD COLUMN excused INTEGER;
    """,
    // Issue 55: runs travel between clones (`history pull`), so each run says
    // where it came from (`ci JOB` or `host NAME`), and each step's fingerprint
    // keeps its parts (`FingerprintParts.serialized`), one row per fingerprint
    // (the fingerprint is the SHA-256 of the parts: a row checks itself).
    """
    ALTER TABLE runs ADD COLUMN origin TEXT;
    CREATE TABLE fingerprint_parts (
      fingerprint TEXT PRIMARY KEY,
      parts TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
  ]

  package static var schemaVersion: Int { migrations.count }

  /// The store's path: `$DUET_HISTORY`, else `.duet/history.sqlite` under the
  /// root; nil when `DUET_HISTORY=off` turns recording off.
  package static func defaultPath(root: URL, environment: [String: String]) -> String? {
    if environment[.history] == "off" { return nil }
    if let custom = environment[.history], !custom.isEmpty {
      return URL(fileURLWithPath: custom, relativeTo: root).path
    }
    return root.appendingPathComponent(".duet/history.sqlite").path
  }

  /// Opens (and creates, and migrates) a store. Read-only stores are checked,
  /// not migrated. `disk` sees the file and makes its folder; SQLite opens it.
  package init(path: String, readOnly: Bool = false, disk: any StoreDisk = systemDisk) throws(HistoryError) {
    self.path = path
    let folder = (path as NSString).deletingLastPathComponent
    if (folder as NSString).lastPathComponent == ".duet" {
      do {
        try PathGuard.checkStateFolder(root: URL(fileURLWithPath: (folder as NSString).deletingLastPathComponent))
      } catch {
        throw .refusedFolder(path, error)
      }
    }
    if let found = disk.status(path), found.kind != S_IFREG {
      throw .notAStore(path, "it is \(PathGuard.kindName(mode_t(found.mode))), not a regular file")
    }
    do {
      if !readOnly { try disk.makeFolders(folder) }
    } catch {
      throw .sqlite(path, SQLiteError(code: 14, message: "cannot make its folder: \(error.why)"))
    }
    do {
      db = try SQLiteDatabase(path: path, readOnly: readOnly)
      db.setBusyTimeout(5000)
      let version = try db.query("PRAGMA user_version").first?.first?.int ?? 0
      if version > HistoryStore.schemaVersion { throw HistoryError.newerSchema(path, version) }
      if readOnly {
        guard version >= 1 else { throw HistoryError.notAStore(path, "it has no duet schema") }
        let check = try db.query("PRAGMA quick_check").first?.first?.text ?? ""
        guard check == "ok" else { throw HistoryError.notAStore(path, "integrity check: \(check)") }
        return
      }
      let mode = try db.query("PRAGMA journal_mode=WAL").first?.first?.text ?? ""
      if mode.lowercased() != "wal" { _ = try db.query("PRAGMA journal_mode=DELETE") }
      try db.execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
      if version < HistoryStore.schemaVersion { try migrate(from: version) }
    } catch {
      throw HistoryError.from(error, path: path)
    }
  }

  private func migrate(from version: Int) throws {
    try db.writeTransaction {
      // Re-read inside the lock: another duet may have migrated meanwhile.
      var current = try db.query("PRAGMA user_version").first?.first?.int ?? 0
      guard current < HistoryStore.schemaVersion else { return }
      while current < HistoryStore.schemaVersion {
        try db.execute(HistoryStore.migrations[current])
        current += 1
        try db.execute("PRAGMA user_version = \(current)")
      }
      // Inside the write lock: an ANALYZE on its own is a read that turns into a
      // write, and two duets opening a new store at once would make one of them
      // fail with SQLITE_BUSY at once, the busy timeout notwithstanding.
      try db.execute("ANALYZE")
    }
  }

  // MARK: - Writing

  /// Writes a run and all its steps in one transaction, with the fingerprint
  /// parts of the lanes that ran (lane name to parts).
  func record(_ run: RunRow, steps: [StepRow], parts: [String: FingerprintParts] = [:], tests: [TestCaseRow] = []) throws(HistoryError) {
    do {
      try db.writeTransaction {
        try insert(run, steps: steps)
        try insert(tests)
        try insert(parts: parts.values.map { ($0.fingerprint, $0.serialized) })
        let replace = try db.prepare("INSERT OR REPLACE INTO lane_inputs (lane, fingerprint, parts) VALUES (?,?,?)")
        for lane in parts.keys.sorted() {
          let part = parts[lane]!
          try replace.run([.text(lane), .text(part.fingerprint), .text(part.serialized)])
        }
      }
    } catch {
      throw HistoryError.from(error, path: path)
    }
  }

  private func insert(_ run: RunRow, steps: [StepRow]) throws {
    let runInsert = try db.prepare("INSERT OR IGNORE INTO runs (id, log_id, started, ended, command, root, git_commit, host, outcome, jobs, duet_version, origin) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
    try runInsert.run([.text(run.id), .text(run.logID), .real(run.started), .real(run.ended), .text(run.command), .text(run.root),
                       run.gitCommit.sqlValue, .text(run.host), .text(run.outcome.rawValue), .integer(Int64(run.jobs)), .text(run.duetVersion),
                       run.origin.sqlValue])
    let stepInsert = try db.prepare("INSERT OR IGNORE INTO steps (run_id, lane, attempt, started, duration, attempt_outcome, lane_outcome, exit_code, fingerprint, log_path, judged, excused) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
    for step in steps {
      try stepInsert.run([.text(step.runID), .text(step.lane), .integer(Int64(step.attempt)), .real(step.started), .real(step.duration),
                          step.attemptOutcome.map(\.rawValue).sqlValue, step.laneOutcome.map(\.rawValue).sqlValue, step.exitCode.map { .integer(Int64($0)) } ?? .null,
                          step.fingerprint.sqlValue, step.logPath.sqlValue, step.judged.sqlValue, step.excused ? .integer(1) : .null])
    }
  }

  /// Fingerprint parts by fingerprint (`fingerprint_parts`); a fingerprint's parts never change.
  func insert(parts: [(fingerprint: String, serialized: String)]) throws {
    guard !parts.isEmpty else { return }
    let statement = try db.prepare("INSERT OR IGNORE INTO fingerprint_parts (fingerprint, parts) VALUES (?,?)")
    for part in parts { try statement.run([.text(part.fingerprint), .text(part.serialized)]) }
  }

  private func insert(_ tests: [TestCaseRow]) throws {
    guard !tests.isEmpty else { return }
    let statement = try db.prepare("INSERT OR IGNORE INTO test_cases (run_id, lane, attempt, seq, suite, name, outcome, duration, message, report, ordinal) VALUES (?,?,?,?,?,?,?,?,?,?,?)")
    // Each attempt's cases are numbered in order; an attempt's cases come
    // together, so the count is looked up only when the attempt changes.
    struct Attempt: Hashable { var lane: String, attempt: Int }
    var seq: [Attempt: Int] = [:]
    var current: Attempt?
    var next = 0
    for test in tests {
      if current?.attempt != test.attempt || current?.lane != test.lane {
        if let current { seq[current] = next }
        let key = Attempt(lane: test.lane, attempt: test.attempt)
        next = seq[key, default: 0]
        current = key
      }
      try statement.run([.text(test.runID), .text(test.lane), .integer(Int64(test.attempt)), .integer(Int64(next)), .text(test.suite),
                         .text(test.name), .text(test.outcome.rawValue), .real(StoredNumber.duration(test.duration)), test.message.sqlValue,
                         .text(test.report), .integer(Int64(test.ordinal))])
      next += 1
    }
  }

  /// Imports every run of another store that this one lacks (same UUID = same run).
  /// The other store is opened read-only and checked first, and every row it
  /// holds must be one duet could have written (`LogLocation.problem`, parts
  /// whose SHA-256 is their fingerprint), or nothing is merged. Errors name the
  /// store they come from. `only`: the runs to import (a CI job's sealed runs,
  /// a pulled commit's); nil for every one. `commit`: the commit every run
  /// imported must have run on (runs pulled from that commit's slots).
  package func merge(from other: String, only: Set<String>? = nil, commit: String? = nil) throws(HistoryError) -> (runs: Int, steps: Int) {
    let source = try HistoryStore(path: other, readOnly: true)
    let incoming: MergeBatch
    do {
      let known = Set(try db.query("SELECT id FROM runs").compactMap { $0.first?.text })
      incoming = try source.batch(named: other, skipping: known, only: only, commit: commit)
    } catch {
      throw HistoryError.from(error, path: other)
    }
    do {
      try db.writeTransaction { try write(incoming) }
      return (incoming.runs.count, incoming.runs.reduce(0) { $0 + $1.steps.count })
    } catch {
      throw HistoryError.from(error, path: path)
    }
  }

  /// Several stores merged in one transaction (the blobs of a pull), each read
  /// and checked as `merge` does; one refused is said in its result and the
  /// others are merged. A run in two of them is merged once.
  package func merge(_ sources: [(path: String, only: Set<String>?, commit: String?)]) -> [Result<(runs: Int, steps: Int), HistoryError>] {
    var known: Set<String>
    do { known = Set(try runIDs()) } catch { return sources.map { _ in .failure(error) } }
    var batches: [MergeBatch] = []
    var results: [Result<(runs: Int, steps: Int), HistoryError>] = []
    for source in sources {
      do {
        let batch = try HistoryStore(path: source.path, readOnly: true).checkedBatch(named: source.path, skipping: known, only: source.only, commit: source.commit)
        known.formUnion(batch.runs.map(\.run.id))
        batches.append(batch)
        results.append(.success((batch.runs.count, batch.runs.reduce(0) { $0 + $1.steps.count })))
      } catch {
        results.append(.failure(error))
      }
    }
    do {
      try db.writeTransaction { try batches.forEach(write) }
      return results
    } catch {
      let failure = HistoryError.sqlite(path, error as? SQLiteError ?? SQLiteError(code: 1, message: "\(error)"))
      return sources.map { _ in .failure(failure) }
    }
  }

  /// `batch`, its errors as the other store's.
  func checkedBatch(named name: String, skipping known: Set<String>, only: Set<String>?, commit: String?) throws(HistoryError) -> MergeBatch {
    do {
      return try batch(named: name, skipping: known, only: only, commit: commit)
    } catch {
      throw HistoryError.from(error, path: name)
    }
  }

  /// Runs read from another store for `merge`, with the parts of their fingerprints.
  struct MergeBatch {
    var runs: [(run: RunRow, steps: [StepRow], tests: [TestCaseRow])] = []
    var parts: [(fingerprint: String, serialized: String)] = []
  }

  /// Writes a batch `merge` read; inside the caller's transaction.
  func write(_ batch: MergeBatch) throws {
    for entry in batch.runs {
      try insert(entry.run, steps: entry.steps)
      try insert(entry.tests)
    }
    try insert(parts: batch.parts)
  }

  /// This (read-only, other) store's runs not in `known` (and in `only`),
  /// checked as `merge` says; `name` is the store as errors name it.
  func batch(named name: String, skipping known: Set<String>, only: Set<String>?, commit: String? = nil) throws -> MergeBatch {
    if let problem = try outOfRange() { throw HistoryError.unsafeRow(name, problem) }
    let runs = try db.query("SELECT \(try runColumns()) FROM runs").compactMap(HistoryStore.runRow)
    // A store from an older duet has no `judged` column: its passes were judged under no known condition.
    let judged = try hasColumn("judged", in: "steps") ? "judged" : "NULL"
    let excused = try hasColumn("excused", in: "steps") ? "excused" : "NULL"
    let statement = try db.prepare("SELECT run_id, lane, attempt, started, duration, attempt_outcome, lane_outcome, exit_code, fingerprint, log_path, \(judged), \(excused) FROM steps WHERE run_id = ?")
    // A store from before schema 4 has no test cases.
    let tests = try hasTable("test_cases")
      ? try db.prepare("SELECT lane, attempt, suite, name, outcome, duration, message, \(try TestFold.identityColumns(self)) FROM test_cases WHERE run_id = ? ORDER BY lane, attempt, seq")
      : nil
    var batch = MergeBatch()
    for run in runs where !known.contains(run.id) && only.map({ $0.contains(run.id) }) ?? true {
      try statement.bind([.text(run.id)])
      var steps: [StepRow] = []
      while try statement.step() {
        if let row = HistoryStore.stepRow(statement.row) { steps.append(row) }
      }
      if let problem = LogLocation.problem(run: run, steps: steps) { throw HistoryError.unsafeRow(name, problem) }
      if let commit, run.gitCommit != commit {
        throw HistoryError.unsafeRow(name, "run \(run.id) ran on commit \(run.gitCommit ?? "none"), not on \(commit), whose runs it was found under")
      }
      batch.runs.append((run, steps, try tests.map { try HistoryStore.testRows($0, run: run.id) } ?? []))
    }
    batch.parts = try checkedParts(of: Set(batch.runs.flatMap { $0.steps.compactMap(\.fingerprint) }), named: name)
    return batch
  }

  /// The largest parts text a merged store may hold for one fingerprint.
  static let maxPartsBytes = 16 << 20

  /// The parts this store holds for `fingerprints`, each checked: in duet's
  /// form (its first line), no larger than `maxPartsBytes`, whose SHA-256 is the
  /// fingerprint. Not parsed here: a reader parses what it needs, and takes
  /// parts it cannot read for none.
  private func checkedParts(of fingerprints: Set<String>, named name: String) throws -> [(fingerprint: String, serialized: String)] {
    guard !fingerprints.isEmpty, try hasTable("fingerprint_parts") else { return [] }
    let statement = try db.prepare("SELECT parts FROM fingerprint_parts WHERE fingerprint = ?")
    var found: [(fingerprint: String, serialized: String)] = []
    for fingerprint in fingerprints.sorted() {
      try statement.bind([.text(fingerprint)])
      guard try statement.step() else { continue }
      guard let text = statement.row.first?.text, text.utf8.count <= HistoryStore.maxPartsBytes,
            text.hasPrefix(FingerprintParts.header + "\n"), Digest.sha256(text) == fingerprint else {
        throw HistoryError.unsafeRow(name, "the parts kept for fingerprint \(fingerprint.prefix(12))… are not that fingerprint's; duet writes no such row, so the store is not merged")
      }
      found.append((fingerprint, text))
    }
    return found
  }

  /// The columns `runRow` reads, `origin` as NULL in a store from before schema 6.
  func runColumns(prefix: String = "") throws -> String {
    let origin = try hasColumn("origin", in: "runs") ? "\(prefix)origin" : "NULL"
    return ["id", "log_id", "started", "ended", "command", "root", "git_commit", "host", "outcome", "jobs", "duet_version"]
      .map { prefix + $0 }.joined(separator: ", ") + ", " + origin
  }

  /// The test cases of run `run` that `statement` (lane, attempt, suite, name,
  /// outcome, duration, message, report, ordinal of `test_cases`) reads; `outOfRange` has checked them.
  static func testRows(_ statement: SQLiteStatement, run: String) throws -> [TestCaseRow] {
    try statement.bind([.text(run)])
    var rows: [TestCaseRow] = []
    while try statement.step() {
      let row = statement.row
      guard row.count == 9, let lane = row[0].text, let attempt = row[1].int, let suite = row[2].text, let name = row[3].text,
            let outcome = row[4].text.flatMap(TestOutcome.init(rawValue:)) else { continue }
      rows.append(TestCaseRow(runID: run, lane: lane, attempt: attempt, suite: suite, name: name, outcome: outcome,
                              duration: StoredNumber.duration(row[5].double), message: row[6].text,
                              report: row[7].text ?? "", ordinal: max(0, row[8].int ?? 0)))
    }
    return rows
  }

  /// The first number in this store that duet would never write (a time
  /// outside 0 to 1e11 s, a duration outside 0 to 1e9 s, not finite, a job
  /// count or attempt out of range), said in words; nil when there is none.
  /// `merge` refuses a store holding one, so reports never see it.
  func outOfRange() throws -> TerminalLine? {
    let time = "BETWEEN 0 AND \(StoredNumber.maxTime)", duration = "BETWEEN 0 AND \(StoredNumber.maxDuration)"
    var checks: [(String, String)] = [
      ("SELECT id, 'started', started FROM runs WHERE NOT (started \(time)) LIMIT 1", "run"),
      ("SELECT id, 'ended', ended FROM runs WHERE NOT (ended \(time)) LIMIT 1", "run"),
      ("SELECT id, 'jobs', jobs FROM runs WHERE NOT (jobs BETWEEN 0 AND 100000) LIMIT 1", "run"),
      ("SELECT run_id || ' lane ' || lane, 'duration', duration FROM steps WHERE NOT (duration \(duration)) LIMIT 1", "run"),
      ("SELECT run_id || ' lane ' || lane, 'started', started FROM steps WHERE NOT (started \(time)) LIMIT 1", "run"),
      ("SELECT run_id || ' lane ' || lane, 'attempt', attempt FROM steps WHERE NOT (attempt BETWEEN 0 AND 1000) LIMIT 1", "run"),
    ]
    if try hasTable("test_cases") {
      checks += [
        ("SELECT run_id || ' lane ' || lane, 'test duration', duration FROM test_cases WHERE NOT (duration \(duration)) LIMIT 1", "run"),
        ("SELECT run_id || ' lane ' || lane, 'test attempt', attempt FROM test_cases WHERE NOT (attempt BETWEEN 0 AND 1000) LIMIT 1", "run"),
        ("SELECT run_id || ' lane ' || lane, 'test outcome', outcome FROM test_cases WHERE outcome NOT IN ('pass', 'fail', 'error', 'skipped') LIMIT 1", "run"),
      ]
    }
    // Schema 5's identity and excuse columns: a position within one attempt's
    // cases, a report path of text as a tree holds it, a flag.
    if try hasColumn("ordinal", in: "test_cases") {
      checks += [
        ("SELECT run_id || ' lane ' || lane, 'test position', ordinal FROM test_cases WHERE NOT (ordinal BETWEEN 0 AND \(TestReportFiles.maxCases)) LIMIT 1", "run"),
        ("SELECT run_id || ' lane ' || lane, 'test report', report FROM test_cases WHERE typeof(report) != 'text' OR length(report) > 4096 LIMIT 1", "run"),
      ]
    }
    if try hasColumn("origin", in: "runs") {
      checks.append(("SELECT id, 'origin', origin FROM runs WHERE NOT (origin IS NULL OR (typeof(origin) = 'text' AND length(origin) <= 256)) LIMIT 1", "run"))
    }
    if try hasColumn("excused", in: "steps") {
      checks.append(("SELECT run_id || ' lane ' || lane, 'excused', excused FROM steps WHERE NOT (excused IS NULL OR excused IN (0, 1)) LIMIT 1", "run"))
    }
    for (query, what) in checks {
      guard let row = try db.query(query).first, row.count == 3 else { continue }
      let value: TerminalLine
      switch row[2] {
      case .real(let number): value = "\(number)"
      case .integer(let number): value = "\(number)"
      case .text(let text): value = "\"\(String(text.prefix(40)))\""
      default: value = "null"
      }
      return "\(what) \(row[0].text ?? "?"): \(row[1].text ?? "?") \(value) is out of range; duet writes no such value, so the store is not merged"
    }
    return nil
  }

  /// Drops all but the newest `keep` runs; returns the log ids of the runs dropped.
  package func prune(keep: Int) throws(HistoryError) -> [String] {
    do {
      return try db.writeTransaction {
        let doomed = try db.query("SELECT id, log_id FROM runs ORDER BY started DESC, id DESC LIMIT -1 OFFSET ?", [.integer(Int64(keep))])
        let delete = try db.prepare("DELETE FROM runs WHERE id = ?")
        let deleteSteps = try db.prepare("DELETE FROM steps WHERE run_id = ?")
        let deleteTests = try db.prepare("DELETE FROM test_cases WHERE run_id = ?")
        for row in doomed {
          guard let id = row.first?.text else { continue }
          try deleteTests.run([.text(id)])
          try deleteSteps.run([.text(id)])
          try delete.run([.text(id)])
        }
        // Parts no step names any more go with their runs.
        if try hasTable("fingerprint_parts") {
          try db.execute("DELETE FROM fingerprint_parts WHERE fingerprint NOT IN (SELECT fingerprint FROM steps WHERE fingerprint IS NOT NULL)")
        }
        return doomed.compactMap { $0.count > 1 ? $0[1].text : nil }
      }
    } catch {
      throw HistoryError.from(error, path: path)
    }
  }

  // MARK: - Reading

  /// Each lane's duration on its last passing attempt: the scheduler's weights.
  package func lastDurations(lanes: [String]) throws(HistoryError) -> [String: Double] {
    try reading {
      let statement = try db.prepare("SELECT duration FROM steps WHERE lane = ? AND attempt_outcome = 'pass' ORDER BY started DESC LIMIT 1")
      var result: [String: Double] = [:]
      for lane in lanes {
        try statement.bind([.text(lane)])
        if try statement.step(), let seconds = statement.row.first?.double { result[lane] = StoredNumber.duration(seconds) }
      }
      return result
    }
  }

  /// Each lane's newest verdict (pass, flaky, cached, fail or timeout) with its
  /// fingerprint and, when kept, that fingerprint's parts: what the cache decides on.
  /// A newest word this duet does not know is that verdict too (its `outcome`
  /// nil), never passed over for an older pass.
  package func lastVerdicts(lanes: [String]) throws(HistoryError) -> [String: LastVerdict] {
    try reading {
      let statement = try db.prepare("""
        SELECT lane_outcome, fingerprint, \(try hasColumn("judged", in: "steps") ? "judged" : "NULL") FROM steps
        WHERE lane = ? AND lane_outcome IS NOT NULL AND lane_outcome NOT IN (\(LaneOutcome.sayingNothing))
        ORDER BY started DESC, attempt DESC LIMIT 1
        """)
      // A store opened read-only may predate the table (`--dry-run` never migrates).
      let hasParts = !(try db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lane_inputs'")).isEmpty
      let partsStatement = hasParts ? try db.prepare("SELECT fingerprint, parts FROM lane_inputs WHERE lane = ?") : nil
      let byFingerprint = try hasTable("fingerprint_parts") ? try db.prepare("SELECT parts FROM fingerprint_parts WHERE fingerprint = ?") : nil
      var result: [String: LastVerdict] = [:]
      for lane in lanes {
        try statement.bind([.text(lane)])
        guard try statement.step(), let word = statement.row.first?.text else { continue }
        let outcome = LaneOutcome(rawValue: word)
        var verdict = LastVerdict(outcome: outcome, fingerprint: statement.row.count > 1 ? statement.row[1].text : nil,
                                  judged: PassConditions.parse(statement.row.count > 2 ? statement.row[2].text : nil))
        if outcome == .flaky || outcome == .cached, let fingerprint = verdict.fingerprint {
          verdict.retried = try retriedPass(lane: lane, fingerprint: fingerprint)
        }
        if let partsStatement {
          try partsStatement.bind([.text(lane)])
          if try partsStatement.step(), partsStatement.row.count > 1, partsStatement.row[0].text == verdict.fingerprint,
             let text = partsStatement.row[1].text {
            verdict.parts = FingerprintParts.parse(text)
          }
        }
        // A verdict recorded elsewhere (pulled, merged) has its parts by fingerprint (schema 6).
        if verdict.parts == nil, let fingerprint = verdict.fingerprint, let byFingerprint {
          try byFingerprint.bind([.text(fingerprint)])
          if try byFingerprint.step(), let text = byFingerprint.row.first?.text { verdict.parts = FingerprintParts.parse(text) }
        }
        result[lane] = verdict
      }
      return result
    }
  }

  /// When the newest run that ran `lane` at `fingerprint` (a cached serve ran
  /// nothing) passed only on a retry: how many of its attempts failed.
  private func retriedPass(lane: String, fingerprint: String) throws(SQLiteError) -> RetriedPass? {
    let newest = try db.query("""
      SELECT run_id, lane_outcome FROM steps
      WHERE lane = ? AND fingerprint = ? AND lane_outcome IN (\(LaneOutcome.sqlList([.pass, .flaky, .fail, .timeout])))
      ORDER BY started DESC, attempt DESC LIMIT 1
      """, [.text(lane), .text(fingerprint)])
    guard let row = newest.first, row.count > 1, row[1].text.flatMap(LaneOutcome.init(rawValue:)) == .flaky, let run = row[0].text else { return nil }
    let counts = try db.query("""
      SELECT COUNT(*), SUM(attempt_outcome IN ('fail', 'timeout')) FROM steps WHERE run_id = ? AND lane = ?
      """, [.text(run), .text(lane)])
    guard let count = counts.first, count.count > 1 else { return nil }
    return RetriedPass(failed: Int(count[1].int ?? 0), attempts: Int(count[0].int ?? 0))
  }

  /// Each lane's newest recorded outcome, over every run; `unaffected` (a lane a
  /// change did not touch) says nothing of the lane and is passed over.
  package func latestOutcomes(lanes: [String]) throws(HistoryError) -> [String: LaneOutcome] {
    try reading {
      let statement = try db.prepare("""
        SELECT lane_outcome FROM steps
        WHERE lane = ? AND lane_outcome IS NOT NULL AND lane_outcome != 'unaffected'
        ORDER BY started DESC, attempt DESC LIMIT 1
        """)
      var result: [String: LaneOutcome] = [:]
      for lane in lanes {
        try statement.bind([.text(lane)])
        if try statement.step(), let outcome = statement.row.first?.text.flatMap(LaneOutcome.init(rawValue:)) { result[lane] = outcome }
      }
      return result
    }
  }

  /// The newest runs first, optionally only those in which `lane` took part.
  package func recentRuns(limit: Int, lane: String? = nil) throws(HistoryError) -> [RunRow] {
    try reading {
      let columns = try runColumns(prefix: "r.")
      if let lane {
        return try db.query("SELECT \(columns) FROM runs r WHERE EXISTS (SELECT 1 FROM steps s WHERE s.run_id = r.id AND s.lane = ?) ORDER BY r.started DESC LIMIT ?", [.text(lane), .integer(Int64(limit))]).compactMap(HistoryStore.runRow)
      }
      return try db.query("SELECT \(columns) FROM runs r ORDER BY r.started DESC LIMIT ?", [.integer(Int64(limit))]).compactMap(HistoryStore.runRow)
    }
  }

  /// Every step of the given runs.
  package func steps(ofRuns ids: [String]) throws(HistoryError) -> [StepRow] {
    try reading {
      let statement = try db.prepare("SELECT run_id, lane, attempt, started, duration, attempt_outcome, lane_outcome, exit_code, fingerprint, log_path FROM steps WHERE run_id = ? ORDER BY lane, attempt")
      var rows: [StepRow] = []
      for id in ids {
        try statement.bind([.text(id)])
        while try statement.step() {
          if let row = HistoryStore.stepRow(statement.row) { rows.append(row) }
        }
      }
      return rows
    }
  }

  /// The id of every run the store holds, as its rows hold them (a row that
  /// does not parse is named too): what a verdict seal is checked against.
  package func runIDs() throws(HistoryError) -> [String] {
    try reading { try db.query("SELECT id FROM runs").map { $0.first?.text ?? "" } }
  }

  func runCount() throws(HistoryError) -> Int {
    try reading { try db.query("SELECT count(*) FROM runs").first?.first?.int ?? 0 }
  }

  /// `body`'s errors as the store's: a `HistoryError` as it is, SQLite's and any other naming the store.
  func reading<T>(_ body: () throws -> T) throws(HistoryError) -> T {
    do {
      return try body()
    } catch {
      throw HistoryError.from(error, path: path)
    }
  }

  /// A run row, or nil for one duet would not write (a missing key, an
  /// outcome this duet does not know), which the readers leave out.
  static func runRow(_ row: [SQLiteValue]) -> RunRow? {
    guard row.count == 11 || row.count == 12, let id = row[0].text, let logID = row[1].text, case let started = row[2].double, case let ended = row[3].double,
          let outcome = row[8].text.flatMap(RunOutcome.init(rawValue:)) else { return nil }
    return RunRow(id: id, logID: logID, started: StoredNumber.time(started), ended: StoredNumber.time(ended), command: row[4].text ?? "", root: row[5].text ?? "",
                  gitCommit: row[6].text, host: row[7].text ?? "", outcome: outcome, jobs: max(0, min(row[9].int ?? 0, 100_000)), duetVersion: row[10].text ?? "",
                  origin: row.count > 11 ? row[11].text : nil)
  }

  /// A step row; an outcome this duet does not know reads as none.
  static func stepRow(_ row: [SQLiteValue]) -> StepRow? {
    guard (10...12).contains(row.count), let run = row[0].text, let lane = row[1].text, let attempt = row[2].int else { return nil }
    var step = StepRow(runID: run, lane: lane, attempt: attempt, started: StoredNumber.time(row[3].double), duration: StoredNumber.duration(row[4].double),
                       attemptOutcome: row[5].text.flatMap(AttemptOutcome.init(rawValue:)), laneOutcome: row[6].text.flatMap(LaneOutcome.init(rawValue:)), exitCode: row[7].int, fingerprint: row[8].text, logPath: row[9].text,
                       judged: row.count > 10 ? row[10].text : nil)
    step.excused = row.count > 11 && (row[11].int ?? 0) != 0
    return step
  }

  /// Whether `table` has `column` (a store opened read-only may predate a migration).
  func hasColumn(_ column: String, in table: String) throws -> Bool {
    try db.query("SELECT 1 FROM pragma_table_info('\(table)') WHERE name = ?", [.text(column)]).isEmpty == false
  }
}

extension HistoryError {
  /// Any error a store's work threw, as the one kind duet reports: itself when
  /// it is one already, else an SQLite error of the store at `path`.
  static func from(_ error: any Error, path: String) -> HistoryError {
    switch error {
    case let error as HistoryError: return error
    case let error as SQLiteError: return .sqlite(path, error)
    default: return .sqlite(path, SQLiteError(code: 1, message: "\(error)"))
    }
  }
}
