import Foundation

/// A path as the file system has it: bytes, which need not be UTF-8.
///
/// Swift strings cannot hold a name such as `caf\xE9.txt` (Latin-1), so a walk
/// that must see every file keeps names as bytes and turns them into text only
/// through `text`, which is one to one: two different paths never give the same
/// text, so a fingerprint built from the text tells every path apart.
package enum PathBytes {
  /// UTF-8 text kept as it is, except a backslash (`\\`), control characters and
  /// every byte that is not part of valid UTF-8 (`\xE9`). Plain paths come out
  /// unchanged.
  package static func text(_ bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes)
    var out = ""
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") {
        out += "\\\\"
        index += 1
      } else if byte < 0x20 || byte == 0x7F {
        out += escaped(byte)
        index += 1
      } else if byte < 0x80 {
        out.unicodeScalars.append(Unicode.Scalar(byte))
        index += 1
      } else if let (scalar, length) = decodeScalar(bytes, at: index), !(0x80..<0xA0).contains(scalar.value) {
        out.unicodeScalars.append(scalar)
        index += length
      } else {
        out += escaped(byte)
        index += 1
      }
    }
    return out
  }

  private static func escaped(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
  }

  /// One UTF-8 scalar starting at `index`, strictly (no overlong forms, no surrogates).
  private static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
    let lead = bytes[index]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return nil
    }
    guard index + length <= bytes.count else { return nil }
    var decoder = UTF8()
    var iterator = bytes[index..<(index + length)].makeIterator()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator), scalar.utf8.count == length else { return nil }
    return (scalar, length)
  }

  /// The bytes of `path` with a terminating NUL, for the C calls that take a path.
  package static func cString(_ path: [UInt8]) -> [CChar] {
    path.map { CChar(bitPattern: $0) } + [0]
  }
}
