/// Text of a report with its references replaced: XML's five entities
/// (`&lt; &gt; &amp; &quot; &apos;`) and character references (`&#10;`,
/// `&#x44e02;`). No other entity exists without a DTD, and duet reads none:
/// `&name;` stays as written. A reference to no character (0, a surrogate,
/// past U+10FFFF) becomes U+FFFD.
enum XMLText {
  /// Hands `body` each byte of the text with its references replaced, until
  /// it answers false: a reader keeps what it needs (a first line, a name) and
  /// the text is never copied whole. In an attribute's value a literal tab or
  /// line break is a space, as XML says (a `&#10;` stays a line break).
  static func forEachByte(of bytes: ArraySlice<UInt8>, attribute: Bool, _ body: (UInt8) -> Bool) {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "&"),
         let semicolon = bytes[index..<min(index + 12, bytes.endIndex)].firstIndex(of: UInt8(ascii: ";")),
         let replaced = reference(bytes[(index + 1)..<semicolon]) {
        for decoded in replaced { guard body(decoded) else { return } }
        index = semicolon + 1
        continue
      }
      guard body(attribute && XMLTag.isSpace(byte) ? UInt8(ascii: " ") : byte) else { return }
      index += 1
    }
  }

  /// The UTF-8 bytes a reference (between `&` and `;`) stands for; nil when it names no known entity.
  static func reference(_ name: ArraySlice<UInt8>) -> [UInt8]? {
    switch String(decoding: name, as: UTF8.self) {
    case "lt": return [UInt8(ascii: "<")]
    case "gt": return [UInt8(ascii: ">")]
    case "amp": return [UInt8(ascii: "&")]
    case "quot": return [UInt8(ascii: "\"")]
    case "apos": return [UInt8(ascii: "'")]
    case let text where text.hasPrefix("#x") || text.hasPrefix("#X"):
      return scalar(UInt32(text.dropFirst(2), radix: 16))
    case let text where text.hasPrefix("#"):
      return scalar(UInt32(text.dropFirst(), radix: 10))
    default:
      return nil
    }
  }

  static func scalar(_ value: UInt32?) -> [UInt8] {
    let character = value.flatMap { $0 == 0 ? nil : Unicode.Scalar($0) } ?? "\u{FFFD}"
    return Array(String(Character(character)).utf8)
  }
}
