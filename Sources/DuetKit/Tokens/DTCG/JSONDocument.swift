import Foundation

/// A JSON file read with Foundation's decoder, plus what Foundation does not
/// give: the order of every object's keys (declaration order is output order)
/// and the line and column of each key, so an error can point at it. A key
/// written twice in one object is reported, where Foundation keeps the last.
public struct JSONDocument: Sendable {
  public var file: String
  public var root: JSONValue
  /// Object path (keys joined by `JSONDocument.separator`) -> its keys in file order.
  var keyOrder: [String: [String]]
  /// Member path -> where its key starts.
  var keyLocations: [String: SourceLocation]

  static let separator: Character = "\u{1F}"

  public static func pathKey(_ path: [String]) -> String { path.joined(separator: String(separator)) }

  /// Parses `data`; `file` names it in messages.
  public static func parse(_ data: Data, file: String) throws(TokenConfigError) -> JSONDocument {
    let root: JSONValue
    do {
      root = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      throw TokenConfigError(diagnostics: [syntaxError(data, file: file)])
    }
    var scan = KeyScan(file: file)
    scan.run(Array(data))
    if !scan.duplicates.isEmpty {
      throw TokenConfigError(diagnostics: scan.duplicates)
    }
    return JSONDocument(file: file, root: root, keyOrder: scan.order, keyLocations: scan.locations)
  }

  /// The keys of the object at `path`, in the order the file writes them.
  public func keys(at path: [String], of members: [String: JSONValue]) -> [String] {
    let written = keyOrder[Self.pathKey(path)] ?? []
    // Every decoded key was scanned; the sort is only a guard against a key the scan missed.
    let missed = members.keys.filter { !written.contains($0) }.sorted()
    return written.filter { members[$0] != nil } + missed
  }

  /// Where the key at the end of `path` starts; the file's start for the root.
  public func location(_ path: [String]) -> SourceLocation {
    keyLocations[Self.pathKey(path)] ?? SourceLocation(file: file, line: 1, column: 1)
  }

  /// Foundation's message names a character offset; this names the line and column.
  static func syntaxError(_ data: Data, file: String) -> Diagnostic {
    var reason = ""
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
    }
    var location: SourceLocation?
    if let range = reason.range(of: "character "), let offset = Int(reason[range.upperBound...].prefix { $0.isNumber }) {
      location = Self.location(ofOffset: offset, in: Array(data), file: file)
    }
    let text = reason.isEmpty ? "not valid JSON" : "not valid JSON: \(reason)"
    return Diagnostic(text, at: location ?? SourceLocation(file: file, line: 1, column: 1))
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

/// One pass over JSON text that Foundation has already accepted, recording
/// each object's keys in order with their positions. It reads strings,
/// brackets, commas and colons only; every other byte is part of a scalar.
private struct KeyScan {
  let file: String
  var order: [String: [String]] = [:]
  var locations: [String: SourceLocation] = [:]
  var duplicates: [Diagnostic] = []
  /// Members written a second time: keys inside them are not compared again.
  var repeated: [String] = []

  enum Container {
    case object(path: [String], key: String?, expectingKey: Bool)
    case array(path: [String], index: Int)
  }

  init(file: String) { self.file = file }

  mutating func run(_ bytes: [UInt8]) {
    var stack: [Container] = []
    var line = 1, column = 1
    var index = 0
    func childPath(_ stack: [Container]) -> [String] {
      switch stack.last {
      case .object(let path, let key, _)?: return path + [key ?? ""]
      case .array(let path, let index)?: return path + [String(index)]
      case nil: return []
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        let start = SourceLocation(file: file, line: line, column: column)
        var text: [UInt8] = []
        index += 1
        column += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
          if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
            text.append(bytes[index])
            index += 1
            column += 1
          }
          text.append(bytes[index])
          if bytes[index] & 0xC0 != 0x80 { column += 1 }
          index += 1
        }
        index += 1
        column += 1
        if case .object(let path, _, true)? = stack.last {
          let key = Self.unescape(text)
          let pathKey = JSONDocument.pathKey(path)
          let memberKey = JSONDocument.pathKey(path + [key])
          if repeated.contains(where: { pathKey == $0 || pathKey.hasPrefix($0 + String(JSONDocument.separator)) }) {
            // Inside a repeated member: reported once, at the member.
          } else if let first = locations[memberKey], order[pathKey]?.contains(key) == true {
            repeated.append(memberKey)
            duplicates.append(Diagnostic(
              "\(Self.dotted(path + [key])): the key '\(key)' is written twice in one object (first at \(first.line):\(first.column)); JSON keeps only the last",
              at: start))
          } else {
            order[pathKey, default: []].append(key)
            locations[memberKey] = start
          }
          stack[stack.count - 1] = .object(path: path, key: key, expectingKey: false)
        }
        continue
      case UInt8(ascii: "{"):
        let path = childPath(stack)
        stack.append(.object(path: path, key: nil, expectingKey: true))
      case UInt8(ascii: "["):
        stack.append(.array(path: childPath(stack), index: 0))
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        _ = stack.popLast()
      case UInt8(ascii: ","):
        switch stack.last {
        case .object(let path, let key, _)?: stack[stack.count - 1] = .object(path: path, key: key, expectingKey: true)
        case .array(let path, let index)?: stack[stack.count - 1] = .array(path: path, index: index + 1)
        case nil: break
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
    guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
    let quoted = [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
    return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: bytes, as: UTF8.self)
  }

  static func dotted(_ path: [String]) -> String { path.isEmpty ? "(root)" : path.joined(separator: ".") }
}
