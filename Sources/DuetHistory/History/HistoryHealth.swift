import Foundation
import DuetModel
import DuetSupport

/// What `duet doctor` says about the history store: where it is, how big, which
/// schema, and whether SQLite's `integrity_check` passes. Opened read-only, so
/// looking never migrates, creates or repairs anything.
package struct HistoryHealth: Sendable, Equatable {
  package enum State: Sendable, Equatable {
    /// Recording is off (`DUET_HISTORY=off`).
    case off
    /// No store yet: the first verify makes one.
    case absent
    /// Readable: its schema version and `integrity_check` verdict (`ok` or the first complaint).
    case store(schema: Int, integrity: String)
    /// Unreadable, not a duet store, or from a newer duet.
    case broken(String)
  }

  var path: String?
  /// Bytes of the store with its `-wal` file.
  package var size: Int64 = 0
  package var state: State

  /// Whether the store needs attention (a run would warn and move it aside).
  var isProblem: Bool {
    switch state {
    case .off, .absent: return false
    case .store(let schema, let integrity): return integrity != "ok" || schema > HistoryStore.schemaVersion
    case .broken: return true
    }
  }

  package static func inspect(path: String?) -> HistoryHealth {
    guard let path else { return HistoryHealth(path: nil, state: .off) }
    guard FileManager.default.fileExists(atPath: path) else { return HistoryHealth(path: path, state: .absent) }
    var health = HistoryHealth(path: path, state: .absent)
    for file in [path, path + "-wal"] {
      if let attributes = try? FileManager.default.attributesOfItem(atPath: file), let size = attributes[.size] as? NSNumber {
        health.size += size.int64Value
      }
    }
    do {
      let db = try SQLiteDatabase(path: path, readOnly: true)
      db.setBusyTimeout(2000)
      let schema = try db.query("PRAGMA user_version").first?.first?.int ?? 0
      guard schema >= 1 else {
        health.state = .broken("it has no duet schema (user_version 0)")
        return health
      }
      let rows = try db.query("PRAGMA integrity_check")
      let verdict = rows.compactMap { $0.first?.text }
      health.state = .store(schema: schema, integrity: verdict == ["ok"] ? "ok" : (verdict.first ?? "no answer"))
    } catch {
      health.state = .broken("\(error)")
    }
    return health
  }
}
