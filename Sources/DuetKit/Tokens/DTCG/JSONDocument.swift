import Foundation

/// A JSON file read in one pass (`JSONReader`): its values, plus what a
/// dictionary does not keep: the order of every object's keys (declaration
/// order is output order) and the line and column of each key, so an error can
/// point at it. A key written twice in one object is reported, where a
/// dictionary would keep the last.
public struct JSONDocument: Sendable {
  public var file: String
  public var root: JSONValue
  /// Every object's keys in file order, with their positions, by path.
  var keyOrder: KeyOrder

  /// Parses `data`; `file` names it in messages.
  public static func parse(_ data: Data, file: String) throws(TokenConfigError) -> JSONDocument {
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
  public func keys(at path: [String], of members: [String: JSONValue]) -> [String] {
    let written = node(path)?.keys ?? []
    if written.count == members.count { return written }
    // The reader records every key it keeps; this is only a guard.
    let seen = Set(written)
    return written.filter { members[$0] != nil } + members.keys.filter { !seen.contains($0) }.sorted()
  }

  /// Where the key at the end of `path` starts; the file's start for the root.
  public func location(_ path: [String]) -> SourceLocation {
    guard let last = path.last, let location = node(path.dropLast())?.location(of: last) else {
      return SourceLocation(file: file, line: 1, column: 1)
    }
    return location
  }

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
/// an index.
final class KeyOrder: @unchecked Sendable {
  // Filled by the reader, read-only after it, so sharing it is safe.
  private struct Entry {
    var key: String
    var location: SourceLocation
    var child: KeyOrder?
  }

  private var entries: [Entry] = []
  /// Positions in `entries` by key, kept once there are more than `scanLimit`.
  private var index: [String: Int] = [:]
  private static let scanLimit = 16

  /// The keys in file order.
  var keys: [String] { entries.map(\.key) }

  /// Where `key` starts, if this object has it.
  func location(of key: String) -> SourceLocation? { position(of: key).map { entries[$0].location } }

  /// The key order of the object under `key`, if that value is an object.
  func child(_ key: String) -> KeyOrder? { position(of: key).flatMap { entries[$0].child } }

  /// Records `key`, which this object must not have yet, at `location`.
  func append(_ key: String, at location: SourceLocation) {
    entries.append(Entry(key: key, location: location))
    if entries.count > Self.scanLimit {
      if index.isEmpty {
        for (position, entry) in entries.enumerated() { index[entry.key] = position }
      } else {
        index[key] = entries.count - 1
      }
    }
  }

  /// Gives the last key appended the key order of its object value.
  func setLastChild(_ child: KeyOrder) {
    entries[entries.count - 1].child = child
  }

  private func position(of key: String) -> Int? {
    if entries.count > Self.scanLimit { return index[key] }
    return entries.firstIndex { $0.key == key }
  }
}
