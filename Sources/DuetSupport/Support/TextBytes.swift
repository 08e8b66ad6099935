import Foundation

/// Where a file stops being text duet can read: the first NUL byte or the
/// first byte sequence that is not UTF-8, with its 1-based line and column
/// (columns count characters, as editors do), so the message points at it.
package enum TextBytes {
  package struct Problem: Sendable, Equatable {
    var line: Int
    var column: Int
    /// "a NUL byte" or "byte 0xFF is not UTF-8".
    var what: String
  }

  package static func firstProblem(in data: Data) -> Problem? {
    data.withUnsafeBytes { raw in firstProblem(in: raw.bindMemory(to: UInt8.self)) }
  }

  static func firstProblem(in bytes: UnsafeBufferPointer<UInt8>) -> Problem? {
    var line = 1, column = 1, index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0 { return Problem(line: line, column: column, what: "a NUL byte") }
      if byte == 0x0A {
        line += 1
        column = 1
        index += 1
        continue
      }
      let length = sequenceLength(bytes, at: index)
      guard length > 0 else {
        return Problem(line: line, column: column, what: "byte 0x" + String(byte, radix: 16, uppercase: true) + " is not UTF-8")
      }
      index += length
      column += 1
    }
    return nil
  }

  /// The length of the well-formed UTF-8 sequence at `index` (RFC 3629: no
  /// overlong forms, no surrogates, nothing past U+10FFFF), or 0.
  static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    let first = bytes[index]
    if first < 0x80 { return 1 }
    let length: Int
    var low: UInt8 = 0x80, high: UInt8 = 0xBF
    switch first {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: return 0
    }
    guard index + length <= bytes.count else { return 0 }
    for offset in 1..<length {
      let byte = bytes[index + offset]
      let (lo, hi) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
      guard byte >= lo && byte <= hi else { return 0 }
    }
    return length
  }
}
