import Foundation
import DuetModel
import DuetSupport

/// One pass over a JSON file's bytes that gives both what `JSONDocument` needs:
/// the values, and every object's keys in file order with the line and column
/// each starts at. Reading the text once, straight into `JSONValue`s, replaced
/// Foundation's parser (a tree of bridged objects to convert) plus a second
/// scan for the key order, which made a DTCG file 2.6 times as slow to read as
/// the same tokens in YAML.
///
/// RFC 8259 as Foundation's parser reads it: one value (of any kind) with
/// optional whitespace around it, no comments, no leading zeros, strings
/// without raw control characters, and (Foundation's one leniency, kept so a
/// file that loaded still loads) one trailing comma after the last member or
/// item. A UTF-8 byte order mark is skipped. Columns count characters (UTF-8
/// lead bytes), 1-based.
struct JSONReader {
  /// Where and why the bytes are not JSON.
  struct Failure: Error {
    var reason: String
    var offset: Int
  }

  /// Deeper nesting than this is refused rather than risking the stack.
  static let depthLimit = 512

  private let bytes: UnsafeBufferPointer<UInt8>
  private let file: String
  private var position = 0
  private var line = 1
  /// The column of `columnOffset`, a byte offset on the current line, so a
  /// column is found by counting from the last one asked for, not from the line's start.
  private var columnOffset = 0
  private var column = 1
  private var depth = 0
  /// The keys from the root to the member being read, for messages.
  private var path: [String] = []
  private(set) var duplicates: [Diagnostic] = []

  /// Reads `bytes`; `file` names it in positions.
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(Failure) -> (value: JSONValue, keys: KeyOrder, duplicates: [Diagnostic]) {
    var reader = JSONReader(bytes: bytes, file: file)
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
      reader.position = 3
      reader.columnOffset = 3
    }
    reader.skipWhitespace()
    let (value, root) = try reader.value()
    reader.skipWhitespace()
    if reader.position < bytes.count { throw Failure(reason: "unexpected text after the end of the JSON value", offset: reader.position) }
    return (value, root ?? KeyOrder(), reader.duplicates)
  }

  private init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
    self.bytes = bytes
    self.file = file
  }

  /// The position of byte `offset`, which must be on the current line at or after the last one asked for.
  private mutating func location(_ offset: Int) -> SourceLocation {
    while columnOffset < offset {
      if bytes[columnOffset] & 0xC0 != 0x80 { column += 1 }
      columnOffset += 1
    }
    return SourceLocation(file: file, line: line, column: column)
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0D:
        position += 1
      case 0x0A:
        position += 1
        line += 1
        columnOffset = position
        column = 1
      default:
        return
      }
    }
  }

  private var next: UInt8? { position < bytes.count ? bytes[position] : nil }

  /// A value, and for an object the order of its keys.
  private mutating func value() throws(Failure) -> (JSONValue, KeyOrder?) {
    if next == UInt8(ascii: "{") {
      let (object, keys) = try object()
      return (object, keys)
    }
    return (try scalarOrArray(), nil)
  }

  /// A value that is not an object.
  private mutating func scalarOrArray() throws(Failure) -> JSONValue {
    guard let byte = next else { throw Failure(reason: "unexpected end of file, expected a value", offset: position) }
    switch byte {
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw Failure(reason: "unexpected character, expected a value", offset: position)
    }
  }

  private mutating func nest() throws(Failure) {
    depth += 1
    if depth > JSONReader.depthLimit { throw Failure(reason: "nested more than \(JSONReader.depthLimit) levels deep", offset: position) }
  }

  private mutating func object() throws(Failure) -> (JSONValue, KeyOrder) {
    var keys = KeyOrder()
    try nest()
    position += 1
    // Values in the order of `keys`' entries, a repeated key's in its first
    // place; the dictionary is built once at the close, at its final size,
    // rather than grown (and rehashed) member by member.
    var values: [JSONValue] = []
    skipWhitespace()
    if next == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return (.object([:]), keys)
    }
    values.reserveCapacity(4)
    while true {
      guard next == UInt8(ascii: "\"") else { throw Failure(reason: "expected a key in double quotes", offset: position) }
      let start = location(position)
      let key = try string()
      let earlier = keys.position(of: key)
      if let earlier {
        let first = keys.place(at: earlier)
        let dotted = (path + [key]).joined(separator: ".")
        duplicates.append(Diagnostic(
          "\(dotted): the key '\(key)' is written twice in one object (first at \(first.line):\(first.column)); JSON keeps only the last",
          at: start))
      } else {
        keys.append(key, line: start.line, column: start.column)
      }
      skipWhitespace()
      guard next == UInt8(ascii: ":") else { throw Failure(reason: "expected ':' after the key", offset: position) }
      position += 1
      skipWhitespace()
      path.append(key)
      let (value, child) = try value()
      // An object under a key is walked by path; a repeated member's order is dropped.
      if let earlier { values[earlier] = value } else { values.append(value) }
      if earlier == nil, let child { keys.setLastChild(child) }
      path.removeLast()
      if try closesAfterItem(UInt8(ascii: "}"), what: "an object member") { return (.object(keys.members(values)), keys) }
    }
  }

  private mutating func array() throws(Failure) -> JSONValue {
    try nest()
    position += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if next == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return .array(items)
    }
    while true {
      path.append(String(items.count))
      items.append(try value().0)
      path.removeLast()
      if try closesAfterItem(UInt8(ascii: "]"), what: "a list item") { return .array(items) }
    }
  }

  /// After an item: a `,` (a trailing one before the close is accepted, as
  /// Foundation accepts it) or the close. True when the container closed.
  private mutating func closesAfterItem(_ close: UInt8, what: String) throws(Failure) -> Bool {
    skipWhitespace()
    if next == UInt8(ascii: ",") {
      position += 1
      skipWhitespace()
      guard next == close else { return false }
    } else if next != close {
      throw Failure(reason: "expected ',' or '\(Character(Unicode.Scalar(close)))' after \(what)", offset: position)
    }
    position += 1
    depth -= 1
    return true
  }

  private mutating func literal(_ word: StaticString) throws(Failure) {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for byte in expected {
      guard next == byte else { throw Failure(reason: "invalid literal, expected '\(word)'", offset: position) }
      position += 1
    }
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, read as a Double.
  private mutating func number() throws(Failure) -> Double {
    let start = position
    func digits(_ reader: inout JSONReader) -> Int {
      let first = reader.position
      while let byte = reader.next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { reader.position += 1 }
      return reader.position - first
    }
    if next == UInt8(ascii: "-") { position += 1 }
    if next == UInt8(ascii: "0") {
      position += 1
      if let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        throw Failure(reason: "a number must not start with a leading zero", offset: position)
      }
    } else if digits(&self) == 0 {
      throw Failure(reason: "expected a digit", offset: position)
    }
    if next == UInt8(ascii: ".") {
      position += 1
      guard digits(&self) > 0 else { throw Failure(reason: "expected a digit after the decimal point", offset: position) }
    }
    if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
      position += 1
      if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { position += 1 }
      guard digits(&self) > 0 else { throw Failure(reason: "expected a digit in the exponent", offset: position) }
    }
    let written = UnsafeBufferPointer(rebasing: bytes[start..<position])
    if let exact = JSONNumber.exact(written) { return exact }
    let text = String(decoding: written, as: UTF8.self)
    guard let number = Double(text), number.isFinite else { throw Failure(reason: "the number \(text) is out of range", offset: start) }
    return number
  }

  /// A string from its opening quote, escapes undone.
  private mutating func string() throws(Failure) -> String {
    position += 1
    let start = position
    // Most strings have no escapes: their bytes are the text.
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        position += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw Failure(reason: "a control character in a string must be escaped", offset: position) }
      position += 1
    }
    return try escapedString(from: start)
  }

  /// The rest of a string from its first escape (at `position`) to its
  /// closing quote, the plain bytes from `start` on kept in front.
  private mutating func escapedString(from start: Int) throws(Failure) -> String {
    var text = Array(bytes[start..<position])
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return String(decoding: text, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") {
        position += 1
        try unescape(into: &text)
      } else {
        if byte < 0x20 { throw Failure(reason: "a control character in a string must be escaped", offset: position) }
        text.append(byte)
        position += 1
      }
    }
    throw Failure(reason: "unexpected end of file in a string", offset: position)
  }

  /// Appends the UTF-8 of the character an escape stands for, `position`
  /// just past its backslash.
  private mutating func unescape(into text: inout [UInt8]) throws(Failure) {
    guard let escaped = next else { throw Failure(reason: "unexpected end of file in a string", offset: position) }
    position += 1
    switch escaped {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
    case UInt8(ascii: "b"): text.append(0x08)
    case UInt8(ascii: "f"): text.append(0x0C)
    case UInt8(ascii: "n"): text.append(0x0A)
    case UInt8(ascii: "r"): text.append(0x0D)
    case UInt8(ascii: "t"): text.append(0x09)
    case UInt8(ascii: "u"):
      let scalar = try unicodeEscape()
      text.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
    default:
      throw Failure(reason: "invalid escape '\\\(Character(Unicode.Scalar(escaped)))' in a string", offset: position - 1)
    }
  }

  /// The scalar a `\u` escape names, `position` just past its `u`; a high
  /// surrogate is joined with the low one its second escape names.
  private mutating func unicodeEscape() throws(Failure) -> UInt32 {
    let scalar = try hex4()
    if (0xD800..<0xDC00).contains(scalar) {
      guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
        throw Failure(reason: "a \\u escape of a high surrogate must be followed by its low surrogate", offset: position)
      }
      position += 2
      let low = try hex4()
      guard (0xDC00..<0xE000).contains(low) else { throw Failure(reason: "invalid low surrogate in a \\u escape", offset: position - 4) }
      return 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00..<0xE000).contains(scalar) {
      throw Failure(reason: "a \\u escape of a lone low surrogate", offset: position - 4)
    }
    return scalar
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = next else { throw Failure(reason: "unexpected end of file in a \\u escape", offset: position) }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw Failure(reason: "expected four hex digits in a \\u escape", offset: position)
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }
}
