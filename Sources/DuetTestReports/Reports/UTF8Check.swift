/// Whether bytes are well-formed UTF-8 (Unicode's table 3-7: no overlong form,
/// no surrogate, nothing past U+10FFFF), checked in place: a report of 30 MB
/// is never copied into a `String` only to learn that.
enum UTF8Check {
  static func isValid(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      var index = 0
      let count = buffer.count
      while index < count {
        let lead = buffer[index]
        if lead < 0x80 {
          index += 1
          continue
        }
        guard let length = sequenceLength(buffer, at: index) else { return false }
        index += length
      }
      return true
    }
  }

  /// The length of the well-formed sequence that starts at `index` with a byte
  /// of 0x80 or more, or nil when there is none.
  static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    let lead = buffer[index]
    let length: Int
    var second: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; second = 0xA0...0xBF
    case 0xED: length = 3; second = 0x80...0x9F
    case 0xE1...0xEF: length = 3
    case 0xF0: length = 4; second = 0x90...0xBF
    case 0xF4: length = 4; second = 0x80...0x8F
    case 0xF1...0xF3: length = 4
    default: return nil
    }
    guard index + length <= buffer.count, second.contains(buffer[index + 1]) else { return nil }
    for offset in 2..<length where !(0x80...0xBF).contains(buffer[index + offset]) { return nil }
    return length
  }
}
