import DuetSupport

extension HistoryStore {
  /// Each lane's newest verdict, when it is a pass a cache entry could hold:
  /// passed (on the first attempt or a retry) or served, fingerprinted, not
  /// excused by the quarantine, not of failed tests only, its inputs unmoved
  /// while it ran. What `history merge` keeps as entries (issue 51). A newest
  /// word this duet does not know serves nothing (issue 54, item 4).
  package func servablePasses(lanes: [String]) throws(HistoryError) -> [String: (fingerprint: String, judged: PassConditions)] {
    try reading {
      let excused = try hasColumn("excused", in: "steps") ? "excused" : "NULL"
      let judged = try hasColumn("judged", in: "steps") ? "judged" : "NULL"
      let statement = try db.prepare("""
        SELECT lane_outcome, fingerprint, \(judged), \(excused) FROM steps
        WHERE lane = ? AND lane_outcome IS NOT NULL AND lane_outcome NOT IN (\(LaneOutcome.sayingNothing))
        ORDER BY started DESC, attempt DESC LIMIT 1
        """)
      var passes: [String: (fingerprint: String, judged: PassConditions)] = [:]
      for lane in lanes {
        try statement.bind([.text(lane)])
        guard try statement.step(), statement.row.count > 3,
              let outcome = statement.row[0].text.flatMap(LaneOutcome.init(rawValue:)), [.pass, .flaky, .cached].contains(outcome),
              let fingerprint = statement.row[1].text, statement.row[3].int != 1 else { continue }
        let conditions = PassConditions.parse(statement.row[2].text)
        guard !conditions.failedTestsOnly, conditions.moved.isEmpty else { continue }
        passes[lane] = (fingerprint, conditions)
      }
      return passes
    }
  }
}
