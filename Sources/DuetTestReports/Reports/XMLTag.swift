/// One start or end tag of a report, read from its bytes: its name and its
/// attributes, each value as written (slices of the report, never copied;
/// `XMLText.forEachByte` decodes what a reader keeps of one).
struct XMLTag {
  var name: ArraySlice<UInt8>
  var attributes: [(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>)] = []
  var closing = false
  var selfClosing = false
  /// The offset just past its `>`.
  var end = 0

  /// The name without a namespace prefix, as text.
  var localName: String { XMLTag.local(name) }

  static func local(_ name: ArraySlice<UInt8>) -> String {
    let tail = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
    return String(decoding: tail, as: UTF8.self)
  }

  /// The value, as written, of the first attribute called `key`.
  subscript(key: String) -> ArraySlice<UInt8>? {
    attributes.first { $0.name.elementsEqual(key.utf8) }?.value
  }

  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  static func isNameByte(_ byte: UInt8) -> Bool {
    !isSpace(byte) && byte != UInt8(ascii: "/") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "=")
      && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
  }

  /// The tag at `start` (a `<`), or nil when it is malformed or cut off;
  /// `cut` says it is cut off (the bytes end inside it), so a reader that has
  /// more of the report reads on.
  static func read(_ bytes: [UInt8], at start: Int, cut: inout Bool) -> XMLTag? {
    var at = start + 1
    let tag = read(bytes, from: &at)
    cut = tag == nil && at >= bytes.count
    return tag
  }

  /// The tag whose name starts at `at`; on nil, `at` is where it went wrong.
  static func read(_ bytes: [UInt8], from at: inout Int) -> XMLTag? {
    var tag = XMLTag(name: [])
    if at < bytes.count && bytes[at] == UInt8(ascii: "/") { tag.closing = true; at += 1 }
    let nameStart = at
    while at < bytes.count && isNameByte(bytes[at]) { at += 1 }
    guard at > nameStart else { return nil }
    tag.name = bytes[nameStart..<at]
    while true {
      while at < bytes.count && isSpace(bytes[at]) { at += 1 }
      guard at < bytes.count else { return nil }
      switch bytes[at] {
      case UInt8(ascii: ">"):
        tag.end = at + 1
        return tag
      case UInt8(ascii: "/") where !tag.closing:
        guard at + 1 < bytes.count else { at += 1; return nil }
        guard bytes[at + 1] == UInt8(ascii: ">") else { return nil }
        tag.selfClosing = true
        tag.end = at + 2
        return tag
      default:
        guard !tag.closing, let attribute = readAttribute(bytes, at: &at) else { return nil }
        tag.attributes.append(attribute)
      }
    }
  }

  /// `name="value"` or `name='value'` at `at`; moves past it.
  static func readAttribute(_ bytes: [UInt8], at: inout Int) -> (name: ArraySlice<UInt8>, value: ArraySlice<UInt8>)? {
    let nameStart = at
    while at < bytes.count && isNameByte(bytes[at]) { at += 1 }
    guard at > nameStart else { return nil }
    let name = bytes[nameStart..<at]
    while at < bytes.count && isSpace(bytes[at]) { at += 1 }
    guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { return nil }
    at += 1
    while at < bytes.count && isSpace(bytes[at]) { at += 1 }
    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { return nil }
    let quote = bytes[at]
    at += 1
    let valueStart = at
    while at < bytes.count && bytes[at] != quote {
      // A `<` in a value is not XML: the value (and the report) is malformed here.
      if bytes[at] == UInt8(ascii: "<") { return nil }
      at += 1
    }
    guard at < bytes.count else { return nil }
    at += 1
    return (name, bytes[valueStart..<(at - 1)])
  }
}
