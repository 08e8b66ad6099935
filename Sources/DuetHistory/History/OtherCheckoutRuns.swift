import DuetModel
import DuetSupport

/// A run of one lane that another checkout or machine recorded (a pulled run,
/// a merged CI store, another clone sharing this store), with the parts of its
/// fingerprint: what `--dry-run` and `duet explain` compare this checkout with.
package struct OtherCheckoutRun: Sendable, Equatable {
  var runID: String
  var logID: String
  /// `ci linux-1`, `host laptop` (`host NAME` for a run from before schema 6):
  /// a terminal line, as the store's text is escaped when it is read.
  var origin: TerminalLine
  var outcome: LaneOutcome
  var started: Double
  var commit: String?
  package var fingerprint: String
  package var parts: FingerprintParts
}

extension HistoryStore {
  /// The newest runs of `lane` on `commit` recorded under another root than
  /// `root` (another clone, another machine: a pulled run has none), whose
  /// fingerprint's parts the store keeps; none in a store from before schema 6.
  package func otherCheckoutRuns(lane: String, commit: String, root: String, limit: Int = 20) throws(HistoryError) -> [OtherCheckoutRun] {
    try reading {
      guard try hasTable("fingerprint_parts") else { return [] }
      return try db.query("""
        \(OtherCheckoutRun.select) WHERE s.lane = ?1 AND r.git_commit = ?2 AND r.root != ?3
        ORDER BY r.started DESC LIMIT ?4
        """, [.text(lane), .text(commit), .text(root), .integer(Int64(limit))]).compactMap(OtherCheckoutRun.init(row:))
    }
  }

  /// The run of `lane` named by `id` (its UUID or log id, or a prefix of
  /// either), whatever recorded it; nil when none or several match.
  package func recordedRun(lane: String, id: String) throws(HistoryError) -> OtherCheckoutRun? {
    try reading {
      guard try hasTable("fingerprint_parts"), !id.isEmpty else { return nil }
      let found = try db.query("""
        \(OtherCheckoutRun.select) WHERE s.lane = ?1 AND (substr(r.id, 1, length(?2)) = ?2 OR substr(r.log_id, 1, length(?2)) = ?2)
        ORDER BY r.started DESC LIMIT 2
        """, [.text(lane), .text(id)]).compactMap(OtherCheckoutRun.init(row:))
      return found.count == 1 ? found[0] : nil
    }
  }
}

extension OtherCheckoutRun {
  /// A lane's last step in each run, with its run and its fingerprint's parts.
  static let select = """
    SELECT r.id, r.log_id, COALESCE(r.origin, 'host ' || r.host), s.lane_outcome, r.started, r.git_commit, s.fingerprint, p.parts
    FROM steps s JOIN runs r ON r.id = s.run_id JOIN fingerprint_parts p ON p.fingerprint = s.fingerprint
    """

  init?(row: [SQLiteValue]) {
    guard row.count == 8, let id = row[0].text, let logID = row[1].text, let origin = row[2].text,
          let outcome = row[3].text.flatMap(LaneOutcome.init(rawValue:)), let fingerprint = row[6].text,
          let parts = row[7].text.flatMap(FingerprintParts.parse) else { return nil }
    self.init(runID: id, logID: logID, origin: "\(origin)", outcome: outcome, started: StoredNumber.time(row[4].double),
              commit: row[5].text, fingerprint: fingerprint, parts: parts)
  }
}
