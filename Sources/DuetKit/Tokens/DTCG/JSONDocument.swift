import Foundation

/// A JSON file read with Foundation's decoder, plus what Foundation does not
/// give: the order of every object's keys (declaration order is output order)
/// and the line and column of each key, so an error can point at it. A key
/// written twice in one object is reported, where Foundation keeps the last.
public struct JSONDocument: Sendable {
  public var file: String
  public var root: JSONValue
  /// Every object's keys in file order, with their positions, by path.
  var keyOrder: KeyOrder

  /// Parses `data`; `file` names it in messages.
  public static func parse(_ data: Data, file: String) throws(TokenConfigError) -> JSONDocument {
    // JSONSerialization rather than JSONDecoder: the same parser, without a
    // Decodable round per value, which made a large file four times slower.
    let parsed: Any
    do {
      parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      throw TokenConfigError(diagnostics: [syntaxError(error, data: data, file: file)])
    }
    guard let root = JSONValue(foundation: parsed) else {
      throw TokenConfigError(diagnostics: [Diagnostic("not valid JSON", at: SourceLocation(file: file, line: 1, column: 1))])
    }
    var scan = KeyScan(file: file)
    scan.run(Array(data))
    if !scan.duplicates.isEmpty {
      throw TokenConfigError(diagnostics: scan.duplicates)
    }
    return JSONDocument(file: file, root: root, keyOrder: scan.root)
  }

  /// The keys of the object at `path`, in the order the file writes them.
  public func keys(at path: [String], of members: [String: JSONValue]) -> [String] {
    let written = node(path)?.keys ?? []
    if written.count == members.count { return written }
    // Every decoded key was scanned; this is only a guard against a key the scan missed.
    let seen = Set(written)
    return written.filter { members[$0] != nil } + members.keys.filter { !seen.contains($0) }.sorted()
  }

  /// Where the key at the end of `path` starts; the file's start for the root.
  public func location(_ path: [String]) -> SourceLocation {
    guard let last = path.last, let location = node(path.dropLast())?.locations[last] else {
      return SourceLocation(file: file, line: 1, column: 1)
    }
    return location
  }

  private func node<Path: Collection<String>>(_ path: Path) -> KeyOrder? {
    var current = keyOrder
    for key in path {
      guard let next = current.children[key] else { return nil }
      current = next
    }
    return current
  }

  /// Foundation's message names a character offset; this names the line and column.
  static func syntaxError(_ error: Error, data: Data, file: String) -> Diagnostic {
    let reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
    var location: SourceLocation?
    if let range = reason.range(of: "character "), let offset = Int(reason[range.upperBound...].prefix { $0.isNumber }) {
      location = Self.location(ofOffset: offset, in: Array(data), file: file)
    }
    return Diagnostic("not valid JSON: \(reason)", at: location ?? SourceLocation(file: file, line: 1, column: 1))
  }

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
/// for the objects inside it: a tree beside Foundation's, walked by path.
final class KeyOrder: @unchecked Sendable {
  // Filled by the scan, read-only after it, so sharing it is safe.
  var keys: [String] = []
  var locations: [String: SourceLocation] = [:]
  var children: [String: KeyOrder] = [:]
}

/// One pass over JSON text that Foundation has already accepted, recording
/// each object's keys in order with their positions. It reads strings,
/// brackets, commas and colons only; every other byte is part of a scalar.
private struct KeyScan {
  let file: String
  let root = KeyOrder()
  var duplicates: [Diagnostic] = []

  struct Open {
    /// Nil for a list.
    var object: KeyOrder?
    var path: [String]
    var key: String?
    var expectingKey: Bool
    var index: Int
  }

  init(file: String) { self.file = file }

  mutating func run(_ bytes: [UInt8]) {
    var stack: [Open] = []
    var line = 1, column = 1
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        let start = SourceLocation(file: file, line: line, column: column)
        let first = index + 1
        var escaped = false
        index += 1
        column += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
          if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
            escaped = true
            index += 1
            column += 1
          }
          if bytes[index] & 0xC0 != 0x80 { column += 1 }
          index += 1
        }
        let text = bytes[first..<min(index, bytes.count)]
        index += 1
        column += 1
        if let top = stack.last, let object = top.object, top.expectingKey {
          let key = escaped ? Self.unescape(Array(text)) : String(decoding: text, as: UTF8.self)
          if let earlier = object.locations[key] {
            duplicates.append(Diagnostic(
              "\(Self.dotted(top.path + [key])): the key '\(key)' is written twice in one object (first at \(earlier.line):\(earlier.column)); JSON keeps only the last",
              at: start))
            // The repeated member's contents go to a node nobody reads: reported once, here.
            stack[stack.count - 1].key = "\u{0}repeated"
          } else {
            object.keys.append(key)
            object.locations[key] = start
            stack[stack.count - 1].key = key
          }
          stack[stack.count - 1].expectingKey = false
        }
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = byte == UInt8(ascii: "{")
        var child: KeyOrder? = nil
        var path: [String] = []
        if let top = stack.last {
          if let parent = top.object {
            let name = top.key ?? ""
            path = top.path + [name]
            if isObject {
              child = KeyOrder()
              parent.children[name] = child
            }
          } else {
            // Objects inside a list are not walked by path; their keys go to a node of their own.
            path = top.path + [String(top.index)]
            if isObject { child = KeyOrder() }
          }
        } else if isObject {
          child = root
        }
        stack.append(Open(object: child, path: path, key: nil, expectingKey: isObject, index: 0))
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        _ = stack.popLast()
      case UInt8(ascii: ","):
        if !stack.isEmpty {
          if stack[stack.count - 1].object != nil { stack[stack.count - 1].expectingKey = true } else { stack[stack.count - 1].index += 1 }
        }
      case UInt8(ascii: "\n"):
        line += 1
        column = 0
      default:
        break
      }
      if byte & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
  }

  /// A key's text with JSON's escapes undone (through Foundation, for `\u` pairs).
  static func unescape(_ bytes: [UInt8]) -> String {
    let quoted = [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
    return (try? JSONSerialization.jsonObject(with: Data(quoted), options: [.fragmentsAllowed]) as? String) ?? String(decoding: bytes, as: UTF8.self)
  }

  static func dotted(_ path: [String]) -> String { path.isEmpty ? "(root)" : path.joined(separator: ".") }
}
