/// Whether bytes are well-formed UTF-8 (Unicode's table 3-7: no overlong form,
/// no surrogate, nothing past U+10FFFF), checked in place as they stream past
/// in pieces of any size: a report of 30 MB is never copied into a `String`
/// only to learn that.
struct UTF8Check {
  private(set) var valid = true
  /// The start of a sequence the last piece cut (at most three bytes).
  private var pending: [UInt8] = []

  static func isValid(_ bytes: [UInt8]) -> Bool {
    var check = UTF8Check()
    check.feed(bytes[...])
    return check.finished
  }

  /// Valid, and no sequence left cut at the end.
  var finished: Bool { valid && pending.isEmpty }

  mutating func feed(_ piece: ArraySlice<UInt8>) {
    guard valid else { return }
    var piece = piece
    if let lead = pending.first {
      // Complete the cut sequence from the piece's first bytes.
      let need = (UTF8Check.shape(lead)?.length ?? 1) - pending.count
      guard piece.count >= need else {
        pending += piece
        valid = UTF8Check.scan(pending[...]).valid
        return
      }
      let whole = pending + piece.prefix(need)
      let result = UTF8Check.scan(whole[...])
      guard result.valid, result.cut == 0 else { valid = false; return }
      piece = piece.dropFirst(need)
      pending = []
    }
    let result = UTF8Check.scan(piece)
    valid = result.valid
    if result.cut > 0 { pending = Array(piece.suffix(result.cut)) }
  }

  /// The length and the range of the second byte of a sequence led by `lead`
  /// (0x80 or more), or nil when no sequence starts so.
  static func shape(_ lead: UInt8) -> (length: Int, second: ClosedRange<UInt8>)? {
    switch lead {
    case 0xC2...0xDF: return (2, 0x80...0xBF)
    case 0xE0: return (3, 0xA0...0xBF)
    case 0xED: return (3, 0x80...0x9F)
    case 0xE1...0xEF: return (3, 0x80...0xBF)
    case 0xF0: return (4, 0x90...0xBF)
    case 0xF4: return (4, 0x80...0x8F)
    case 0xF1...0xF3: return (4, 0x80...0xBF)
    default: return nil
    }
  }

  /// Whether `bytes` are well-formed, allowing the last sequence to be cut
  /// short (`cut`: how many bytes of it there are) when what there is of it is.
  static func scan(_ bytes: ArraySlice<UInt8>) -> (valid: Bool, cut: Int) {
    bytes.withUnsafeBufferPointer { buffer in
      var index = 0
      let count = buffer.count
      while index < count {
        if buffer[index] < 0x80 {
          index += 1
          continue
        }
        guard let (length, second) = shape(buffer[index]) else { return (false, 0) }
        let present = min(length, count - index)
        if present > 1 && !second.contains(buffer[index + 1]) { return (false, 0) }
        if present > 2 {
          for offset in 2..<present where !(0x80...0xBF).contains(buffer[index + offset]) { return (false, 0) }
        }
        if present < length { return (true, present) }
        index += length
      }
      return (true, 0)
    }
  }
}
