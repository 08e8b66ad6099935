import Foundation

/// A name, or the first line of a message, kept from a report's text as it
/// streams past (`XMLText.forEachByte`): only the bytes that can be kept are
/// copied, so a `<failure>` body of 30 MB costs its first line, not a copy and
/// a split of the whole (issue 50: that cost 660-700 MB for one report).
struct FieldText {
  /// The most bytes kept: `maxFieldLength` characters of four bytes, four times
  /// over for combining marks; past it the text is cut, with `…`.
  static let maxBytes = JUnitReader.maxFieldLength * 16

  /// Keep only the first line that holds more than spaces, trimmed.
  let firstLineOnly: Bool
  private(set) var bytes: [UInt8] = []
  /// More bytes came than `maxBytes`.
  private(set) var cut = false
  /// Nothing more is wanted: the first line has ended, or the bound is reached.
  private(set) var done = false

  /// Takes one byte of decoded text; false once nothing more is wanted.
  mutating func take(_ byte: UInt8) -> Bool {
    guard !done else { return false }
    if firstLineOnly {
      if byte == 0x0A || byte == 0x0D {
        if lineHoldsText { done = true; return false }
        bytes.removeAll(keepingCapacity: true)
        return true
      }
      // Leading blanks are trimmed anyway; never keeping them bounds a line of a million spaces.
      if bytes.isEmpty && (byte == 0x20 || byte == 0x09) { return true }
    }
    guard bytes.count < FieldText.maxBytes else {
      cut = true
      done = true
      return false
    }
    bytes.append(byte)
    return true
  }

  /// Whether the line so far holds more than spaces (leading blanks are never kept).
  var lineHoldsText: Bool {
    guard bytes.contains(where: { $0 >= 0x80 }) else { return !bytes.isEmpty }
    return !String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces).isEmpty
  }

  /// The text kept, in the report's encoding (`latin1`: a character a byte),
  /// trimmed when it is a first line and cut to the field bound, with `…`;
  /// nil for a first line with nothing but spaces.
  func text(latin1: Bool) -> String? {
    var text = latin1 ? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) : String(decoding: bytes, as: UTF8.self)
    if firstLineOnly {
      text = text.trimmingCharacters(in: .whitespaces)
      if text.isEmpty { return nil }
    }
    // The bound may have split the last character's bytes.
    if cut && !text.isEmpty { text.removeLast() }
    let clipped = FieldText.clip(text)
    return cut && clipped == text ? text + "…" : clipped
  }

  /// At most `maxFieldLength` characters; the rest is cut, with `…`.
  static func clip(_ text: String) -> String {
    text.count <= JUnitReader.maxFieldLength ? text : String(text.prefix(JUnitReader.maxFieldLength)) + "…"
  }
}
