/// The protocol-buffer wire format, as much of it as an REAPI `ActionResult`
/// needs: varints and length-delimited fields written in field order, and a
/// reader that walks fields and skips what it does not know. There is no
/// protobuf library in the toolchain, and an action entry is a few fields deep.
struct ProtobufWriter {
  private(set) var bytes: [UInt8] = []

  mutating func varint(_ field: Int, _ value: UInt64) {
    tag(field, wire: 0)
    appendVarint(value)
  }

  mutating func bool(_ field: Int, _ value: Bool) {
    if value { varint(field, 1) }
  }

  mutating func bytes(_ field: Int, _ value: [UInt8]) {
    tag(field, wire: 2)
    appendVarint(UInt64(value.count))
    bytes += value
  }

  mutating func string(_ field: Int, _ value: String) {
    bytes(field, Array(value.utf8))
  }

  /// A nested message, written by `body`.
  mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
    var inner = ProtobufWriter()
    body(&inner)
    bytes(field, inner.bytes)
  }

  private mutating func tag(_ field: Int, wire: UInt64) {
    appendVarint(UInt64(field) << 3 | wire)
  }

  private mutating func appendVarint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }
}

/// One field as read: a number's value or a length-delimited field's bytes.
enum ProtobufField {
  case varint(UInt64)
  case bytes(ArraySlice<UInt8>)
  /// Fixed 32- and 64-bit fields, which an action entry never uses: skipped.
  case fixed
}

/// Reads a message's fields in order. Every length is checked against what is
/// left, so a truncated or hostile entry ends in `nil`, never a trap.
struct ProtobufReader {
  private let bytes: ArraySlice<UInt8>
  private var offset: Int

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    offset = bytes.startIndex
  }

  /// Every field of the message, or nil where the bytes are not the wire format.
  static func fields(_ bytes: ArraySlice<UInt8>) -> [(number: Int, value: ProtobufField)]? {
    var reader = ProtobufReader(bytes)
    var fields: [(Int, ProtobufField)] = []
    while reader.offset < bytes.endIndex {
      guard let tag = reader.varint(), tag >> 3 > 0, tag >> 3 < 1 << 29 else { return nil }
      let number = Int(tag >> 3)
      switch tag & 7 {
      case 0:
        guard let value = reader.varint() else { return nil }
        fields.append((number, .varint(value)))
      case 1:
        guard reader.skip(8) else { return nil }
        fields.append((number, .fixed))
      case 2:
        guard let length = reader.varint(), length <= UInt64(bytes.endIndex - reader.offset) else { return nil }
        let start = reader.offset
        reader.offset += Int(length)
        fields.append((number, .bytes(bytes[start..<reader.offset])))
      case 5:
        guard reader.skip(4) else { return nil }
        fields.append((number, .fixed))
      default:
        return nil
      }
    }
    return fields
  }

  private mutating func varint() -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.endIndex, shift < 64 {
      let byte = bytes[offset]
      offset += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    return nil
  }

  private mutating func skip(_ count: Int) -> Bool {
    guard bytes.endIndex - offset >= count else { return false }
    offset += count
    return true
  }
}

extension ProtobufField {
  var text: String? {
    guard case .bytes(let slice) = self else { return nil }
    return String(validating: slice, as: UTF8.self)
  }

  var number: UInt64? {
    guard case .varint(let value) = self else { return nil }
    return value
  }

  var slice: ArraySlice<UInt8>? {
    guard case .bytes(let slice) = self else { return nil }
    return slice
  }
}
