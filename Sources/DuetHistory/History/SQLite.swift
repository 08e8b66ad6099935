import CSQLite
import Foundation
import DuetModel
import DuetSupport

/// A failed SQLite call, with the library's own message.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
  var code: Int32
  var message: String

  package var description: String { "\(message) (sqlite \(code))" }
  /// Another writer holds the lock (after the busy timeout ran out).
  var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
  /// The file is not a database, or is damaged.
  var isCorrupt: Bool { code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB }
}

/// A value bound to or read from a statement.
enum SQLiteValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
}

/// One SQLite connection. It owns the C handle, checks every return code, and
/// every statement it makes is finalised when the statement goes away.
final class SQLiteDatabase {
  private let handle: OpaquePointer

  init(path: String, readOnly: Bool = false) throws(SQLiteError) {
    var db: OpaquePointer?
    let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    let status = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
    guard status == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
      if let db { sqlite3_close_v2(db) }
      throw SQLiteError(code: status, message: message)
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
  }

  deinit { sqlite3_close_v2(handle) }

  /// Milliseconds a statement waits for another connection's lock before SQLITE_BUSY.
  func setBusyTimeout(_ milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String) throws(SQLiteError) {
    var errorMessage: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
    if status != SQLITE_OK {
      let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(errorMessage)
      throw SQLiteError(code: status, message: message)
    }
  }

  func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard status == SQLITE_OK, let statement else { throw error(status) }
    return SQLiteStatement(statement, database: self)
  }

  /// The rows of a query, each as its columns' values.
  func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    var rows: [[SQLiteValue]] = []
    while try statement.step() { rows.append(statement.row) }
    return rows
  }

  /// `BEGIN IMMEDIATE` takes the write lock up front, so a read-then-write
  /// transaction cannot fail later with SQLITE_BUSY_SNAPSHOT.
  func writeTransaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  func error(_ status: Int32) -> SQLiteError {
    SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
  }
}

/// A prepared statement, finalised on deinit.
final class SQLiteStatement {
  private let statement: OpaquePointer
  private let database: SQLiteDatabase

  fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
    self.statement = statement
    self.database = database
  }

  deinit { sqlite3_finalize(statement) }

  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .null: status = sqlite3_bind_null(statement, index)
      case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
      case .real(let number): status = sqlite3_bind_double(statement, index, number)
      case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, SQLiteStatement.transient)
      }
      guard status == SQLITE_OK else { throw database.error(status) }
    }
  }

  /// Advances to the next row; false when there are no more.
  func step() throws(SQLiteError) -> Bool {
    let status = sqlite3_step(statement)
    if status == SQLITE_ROW { return true }
    if status == SQLITE_DONE { return false }
    throw database.error(status)
  }

  /// Binds, runs to completion, and resets: for inserts and updates.
  func run(_ values: [SQLiteValue]) throws(SQLiteError) {
    try bind(values)
    while try step() {}
  }

  // Column reads without building a row: for scans that fold millions of rows.

  /// A real column; 0 for one that is not finite (a store edited by hand).
  func double(at column: Int32) -> Double {
    let value = sqlite3_column_double(statement, column)
    return value.isFinite ? value : 0
  }

  /// A text column's UTF-8 bytes, valid until the statement steps, is reset or
  /// goes away; nil for NULL.
  func text(at column: Int32) -> UnsafeBufferPointer<UInt8>? {
    guard let text = sqlite3_column_text(statement, column) else { return nil }
    return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))
  }

  var row: [SQLiteValue] {
    (0..<sqlite3_column_count(statement)).map { column in
      switch sqlite3_column_type(statement, column) {
      case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
      case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
      case SQLITE_NULL: return .null
      default:
        guard let text = sqlite3_column_text(statement, column) else { return .null }
        return .text(String(cString: text))
      }
    }
  }
}

extension SQLiteValue {
  var text: String? { if case .text(let value) = self { return value } else { return nil } }
  var int: Int? {
    switch self {
    case .integer(let value): return Int(value)
    // A real out of Int's range (or not finite) converts to nothing, never a trap.
    case .real(let value): return value.isFinite && abs(value) < 9.0e18 ? Int(value) : nil
    default: return nil
    }
  }
  var double: Double? {
    switch self {
    case .real(let value): return value.isFinite ? value : nil
    case .integer(let value): return Double(value)
    default: return nil
    }
  }
}

extension Optional where Wrapped == String {
  var sqlValue: SQLiteValue { self.map { .text($0) } ?? .null }
}
