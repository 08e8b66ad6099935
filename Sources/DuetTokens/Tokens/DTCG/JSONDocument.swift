import Foundation
import DuetModel
import DuetSupport

/// A JSON file read in one pass (`JSONReader`): its values, plus what a
/// dictionary does not keep: the order of every object's keys (declaration
/// order is output order) and the line and column of each key, so an error can
/// point at it. A key written twice in one object is reported, where a
/// dictionary would keep the last.
struct JSONDocument: Sendable {
  var file: String
  var root: JSONValue
  /// Every object's keys in file order, with their positions, by path.
  var keyOrder: KeyOrder

  /// Parses `data`; `file` names it in messages.
  static func parse(_ data: Data, file: String) throws(TokenConfigError) -> JSONDocument {
    let result = data.withUnsafeBytes { raw in
      Result { () throws(JSONReader.Failure) in try JSONReader.read(raw.bindMemory(to: UInt8.self), file: file) }
    }
    switch result {
    case .failure(let failure):
      let location = location(ofOffset: failure.offset, in: Array(data), file: file)
      throw TokenConfigError(diagnostics: [Diagnostic("not valid JSON: \(failure.reason)", at: location)])
    case .success(let read):
      if !read.duplicates.isEmpty { throw TokenConfigError(diagnostics: read.duplicates) }
      return JSONDocument(file: file, root: read.value, keyOrder: read.keys)
    }
  }

  /// The keys of the object at `path`, in the order the file writes them.
  func keys(at path: [String], of members: [String: JSONValue]) -> [String] {
    keys(in: node(path), of: members)
  }

  /// `keys(at:of:)` for an object whose key order is in hand (a walk down the
  /// file passes each object's on, rather than finding it again from the root).
  func keys(in order: KeyOrder?, of members: [String: JSONValue]) -> [String] {
    let written = order?.keys ?? []
    if written.count == members.count { return written }
    // The reader records every key it keeps; this is only a guard.
    let seen = Set(written)
    return written.filter { members[$0] != nil } + members.keys.filter { !seen.contains($0) }.sorted()
  }

  /// Where the key at the end of `path` starts; the file's start for the root.
  func location(_ path: [String]) -> SourceLocation {
    guard let last = path.last else { return SourceLocation(file: file, line: 1, column: 1) }
    return location(of: last, in: node(path.dropLast()))
  }

  /// Where `key` of the object with key order `order` starts; the file's start when unknown.
  func location(of key: String, in order: KeyOrder?) -> SourceLocation {
    guard let order, let position = order.position(of: key) else { return SourceLocation(file: file, line: 1, column: 1) }
    let place = order.place(at: position)
    return SourceLocation(file: file, line: place.line, column: place.column)
  }

  /// The key order of the object at `path`: the root's for an empty path.
  private func node<Path: Collection<String>>(_ path: Path) -> KeyOrder? {
    var current = keyOrder
    for key in path {
      guard let next = current.child(key) else { return nil }
      current = next
    }
    return current
  }

  /// The line and column of byte `offset`, for a syntax error.
  static func location(ofOffset offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
    var line = 1, column = 1
    for byte in bytes.prefix(offset) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return SourceLocation(file: file, line: line, column: column)
  }
}

/// The keys of one object in file order with where each starts, and the same
/// for the objects inside it: a tree beside the values, walked by path.
///
/// One array of entries, searched by scan: most objects have a few keys, and
/// two dictionaries per object cost a DTCG file more to fill and free than
/// anything else it read. An object with many keys (a group of tokens) gets
/// an index. A value, built bottom up by the reader (an object's order is
/// complete before its parent takes it), so sharing it needs no lock.
struct KeyOrder: Sendable {
  /// A line and column, not a `SourceLocation`: the file is the document's,
  /// and a name per key was one more reference to count.
  private struct Entry: Sendable {
    var key: String
    var line: Int
    var column: Int
    var child: KeyOrder?
  }

  private var entries: [Entry] = []
  /// Positions in `entries` by key, kept once there are more than `scanLimit`.
  private var index: [String: Int] = [:]
  private static let scanLimit = 16

  init() {}

  /// The keys in file order.
  var keys: [String] { entries.map(\.key) }

  /// The line and column where the key at `position` starts.
  func place(at position: Int) -> (line: Int, column: Int) { (entries[position].line, entries[position].column) }

  /// The key order of the object under `key`, if that value is an object.
  func child(_ key: String) -> KeyOrder? { position(of: key).flatMap { entries[$0].child } }

  /// Records `key`, which this object must not have yet, starting at `line` and `column`.
  mutating func append(_ key: String, line: Int, column: Int) {
    if entries.isEmpty { entries.reserveCapacity(4) }
    entries.append(Entry(key: key, line: line, column: column))
    if entries.count > Self.scanLimit {
      if index.isEmpty {
        for (position, entry) in entries.enumerated() { index[entry.key] = position }
      } else {
        index[key] = entries.count - 1
      }
    }
  }

  /// Gives the last key appended the key order of its object value.
  mutating func setLastChild(_ child: KeyOrder) {
    entries[entries.count - 1].child = child
  }

  /// The object's members: `values[i]` is the value of the `i`th key.
  func members(_ values: [JSONValue]) -> [String: JSONValue] {
    var members = [String: JSONValue](minimumCapacity: values.count)
    for (position, value) in values.enumerated() { members[entries[position].key] = value }
    return members
  }

  /// Where `key` is among the entries, if this object has it.
  func position(of key: String) -> Int? {
    if entries.count > Self.scanLimit { return index[key] }
    return entries.firstIndex { $0.key == key }
  }
}
