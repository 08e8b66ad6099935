import DuetModel
import DuetSupport


/// The report window read straight from the store: the last `last` runs (and
/// only those since `since`), oldest first, each run's counted attempts folded
/// into lane runs as the rows stream past.
///
/// No step row becomes a Swift value: SQLite classifies the outcomes, each run's
/// steps come in primary-key order (lane, attempt) with no sort, a lane name is
/// matched against the lane at the same place in the previous run by its bytes,
/// and a fingerprint against the lane's previous one, so strings are made only
/// for names and fingerprints not seen before.
struct ReportWindow {
  /// Runs in the window, with or without counted steps.
  var runs = 0
  /// Lane names, indexed by `LaneTally.lane`.
  var lanes: [String] = []

  private var laneBytes: [[UInt8]] = []
  private var laneIndex: [String: Int] = [:]
  private var fingerprintIndex: [String: Int] = [:]
  /// Per lane: its newest fingerprint's bytes and index.
  private var lastFingerprint: [(bytes: [UInt8], index: Int)?] = []

  /// What a report reads of each step beyond its lane and attempt outcome; a
  /// column neither report needs is not read (each costs SQLite work per row).
  enum Reading {
    /// Fingerprints, for `duet flaky`.
    case evidence
    /// Lane outcomes and durations, for `duet stats`.
    case durations
  }

  /// Reads the window and hands each lane run to `body`, in run order.
  static func scan(_ db: SQLiteDatabase, last: Int, since: Double?, reading: Reading, _ body: (LaneTally) -> Void) throws -> ReportWindow {
    var window = ReportWindow()
    let runList = try db.prepare("""
      SELECT id, started FROM runs \(since == nil ? "" : "WHERE started >= ?2")
      ORDER BY started DESC, id DESC LIMIT ?1
      """)
    try runList.bind(since.map { [.integer(Int64(last)), .real($0)] } ?? [.integer(Int64(last))])
    var runs: [(id: String, started: Double)] = []
    while try runList.step() {
      runs.append((runList.text(at: 0).map { String(decoding: $0, as: UTF8.self) } ?? "", StoredNumber.time(runList.double(at: 1))))
    }
    window.runs = runs.count
    // The outcomes are read as bytes and classified here: SQLite's CASE and
    // filter on every row cost more than the comparisons themselves.
    // A store opened read-only may predate schema 5's `excused`.
    let excused = try !db.query("SELECT 1 FROM pragma_table_info('steps') WHERE name = 'excused'").isEmpty ? "excused" : "NULL"
    let steps = try db.prepare("""
      SELECT lane, attempt_outcome, \(reading == .evidence ? "fingerprint" : "lane_outcome, duration, \(excused)")
      FROM steps WHERE run_id = ?1 ORDER BY lane, attempt
      """)
    var previousOrder: [Int] = [], order: [Int] = []
    for run in runs.reversed() {
      try steps.bind([.text(run.id)])
      var pending: LaneTally?
      order.removeAll(keepingCapacity: true)
      while try steps.step() {
        // Each column's bytes are read once; they stay valid until the next step.
        guard let kind = AttemptKind(bytes: steps.text(at: 1)) else { continue }
        var lanePassed: Bool?, seconds = 0.0
        if reading == .durations {
          lanePassed = steps.text(at: 2).map { ReportWindow.equal($0, "pass") || ReportWindow.equal($0, "flaky") }
          seconds = StoredNumber.duration(steps.double(at: 3))
        }
        let laneName = steps.text(at: 0)
        if pending == nil || !ReportWindow.equal(laneName, window.laneBytes[pending!.lane]) {
          if let pending { body(pending) }
          let guess = order.count < previousOrder.count ? previousOrder[order.count] : nil
          let lane = window.lane(for: laneName, guess: guess)
          order.append(lane)
          let fingerprint = reading == .evidence ? window.fingerprint(for: steps.text(at: 2), lane: lane) : nil
          pending = LaneTally(lane: lane, started: run.started, fingerprint: fingerprint, failed: 0, anyPassed: false,
                            finalPassed: false, seconds: 0, lanePassed: false)
        }
        pending!.add(kind, seconds: seconds, lanePassed: lanePassed)
        if reading == .durations, steps.double(at: 4) != 0 { pending!.excused = true }
      }
      if let pending { body(pending) }
      swap(&previousOrder, &order)
    }
    return window
  }

  /// The lane's index: the guess when its bytes match, else by name (added when new).
  private mutating func lane(for bytes: UnsafeBufferPointer<UInt8>?, guess: Int?) -> Int {
    let bytes = bytes ?? UnsafeBufferPointer(start: nil, count: 0)
    if let guess, ReportWindow.equal(bytes, laneBytes[guess]) { return guess }
    let name = String(decoding: bytes, as: UTF8.self)
    if let known = laneIndex[name] { return known }
    lanes.append(name)
    laneBytes.append(Array(bytes))
    lastFingerprint.append(nil)
    laneIndex[name] = lanes.count - 1
    return lanes.count - 1
  }

  /// The fingerprint's index: the lane's previous one when the bytes match, else by text.
  private mutating func fingerprint(for bytes: UnsafeBufferPointer<UInt8>?, lane: Int) -> Int? {
    guard let bytes else { return nil }
    if let last = lastFingerprint[lane], ReportWindow.equal(bytes, last.bytes) { return last.index }
    let text = String(decoding: bytes, as: UTF8.self)
    let index = fingerprintIndex[text] ?? fingerprintIndex.count
    fingerprintIndex[text] = index
    lastFingerprint[lane] = (Array(bytes), index)
    return index
  }

  /// Byte equality, in a loop: names and outcomes are short, and a call to memcmp costs more than the compare.
  static func equal(_ bytes: UnsafeBufferPointer<UInt8>?, _ known: [UInt8]) -> Bool {
    guard let bytes else { return known.isEmpty }
    guard bytes.count == known.count else { return false }
    return known.withUnsafeBufferPointer { known in
      for index in 0..<known.count where bytes[index] != known[index] { return false }
      return true
    }
  }

  static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    let known = word.utf8Start
    for index in 0..<bytes.count where bytes[index] != known[index] { return false }
    return true
  }
}

extension HistoryStore {
  /// Streams the report window's lane runs to `body` (see `ReportWindow`).
  func scanWindow(last: Int, since: Double?, reading: ReportWindow.Reading, _ body: (LaneTally) -> Void) throws(HistoryError) -> ReportWindow {
    do {
      return try ReportWindow.scan(db, last: last, since: since, reading: reading, body)
    } catch {
      throw HistoryError.from(error, path: path)
    }
  }
}
