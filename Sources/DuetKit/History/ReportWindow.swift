import CSQLite
import Foundation

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
  /// Lane names, indexed by `LaneRun.lane`.
  var lanes: [String] = []

  private var laneBytes: [[UInt8]] = []
  private var laneIndex: [String: Int] = [:]
  private var fingerprintIndex: [String: Int] = [:]
  /// Per lane: its newest fingerprint's bytes and index.
  private var lastFingerprint: [(bytes: [UInt8], index: Int)?] = []

  /// Reads the window and hands each lane run to `body`, in run order.
  static func scan(_ db: SQLiteDatabase, last: Int, since: Double?, _ body: (LaneRun) -> Void) throws -> ReportWindow {
    var window = ReportWindow()
    let runList = try db.prepare("""
      SELECT id, started FROM runs \(since == nil ? "" : "WHERE started >= ?2")
      ORDER BY started DESC, id DESC LIMIT ?1
      """)
    try runList.bind(since.map { [.integer(Int64(last)), .real($0)] } ?? [.integer(Int64(last))])
    var runs: [(id: String, started: Double)] = []
    while try runList.step() {
      runs.append((runList.withText(at: 0) { $0.map { String(decoding: $0, as: UTF8.self) } ?? "" }, runList.double(at: 1)))
    }
    window.runs = runs.count
    let steps = try db.prepare("""
      SELECT lane,
        CASE attempt_outcome WHEN 'pass' THEN 1 WHEN 'fail' THEN 2 WHEN 'timeout' THEN 2 ELSE 0 END,
        CASE WHEN lane_outcome IS NULL THEN 0 WHEN lane_outcome IN ('pass', 'flaky') THEN 1 ELSE 2 END,
        fingerprint, duration
      FROM steps
      WHERE run_id = ?1 AND attempt_outcome IS NOT NULL AND attempt_outcome != 'interrupted'
      ORDER BY lane, attempt
      """)
    var previousOrder: [Int] = [], order: [Int] = []
    for run in runs.reversed() {
      try steps.bind([.text(run.id)])
      var pending: LaneRun?
      order.removeAll(keepingCapacity: true)
      while try steps.step() {
        let kind = AttemptKind(rawValue: steps.integer(at: 1)) ?? .other
        let laneOutcome = steps.integer(at: 2)
        let lanePassed: Bool? = laneOutcome == 0 ? nil : laneOutcome == 1
        let seconds = steps.double(at: 4)
        let sameLane = steps.withText(at: 0) { bytes in pending.map { ReportWindow.equal(bytes, window.laneBytes[$0.lane]) } ?? false }
        if !sameLane {
          if let pending { body(pending) }
          let guess = order.count < previousOrder.count ? previousOrder[order.count] : nil
          let lane = steps.withText(at: 0) { window.lane(for: $0, guess: guess) }
          order.append(lane)
          let fingerprint = steps.withText(at: 3) { window.fingerprint(for: $0, lane: lane) }
          pending = LaneRun(lane: lane, started: run.started, fingerprint: fingerprint, failed: 0, anyPassed: false,
                            finalPassed: false, seconds: 0, lanePassed: false)
        }
        pending!.add(kind, seconds: seconds, lanePassed: lanePassed)
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

  private static func equal(_ bytes: UnsafeBufferPointer<UInt8>?, _ known: [UInt8]) -> Bool {
    guard let bytes else { return known.isEmpty }
    guard bytes.count == known.count else { return false }
    guard let base = bytes.baseAddress, !known.isEmpty else { return bytes.isEmpty && known.isEmpty }
    return known.withUnsafeBufferPointer { memcmp(base, $0.baseAddress!, known.count) == 0 }
  }
}

extension HistoryStore {
  /// Streams the report window's lane runs to `body` (see `ReportWindow`).
  func scanWindow(last: Int, since: Double?, _ body: (LaneRun) -> Void) throws(HistoryError) -> ReportWindow {
    do {
      return try ReportWindow.scan(db, last: last, since: since, body)
    } catch let error as SQLiteError {
      throw .sqlite(path, error)
    } catch {
      throw .sqlite(path, SQLiteError(code: 1, message: "\(error)"))
    }
  }
}
