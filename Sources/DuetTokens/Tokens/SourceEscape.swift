/// The two languages the token files are written in, and the one place tree
/// text (a token's `doc` or `note`, a group heading, the config's path) is
/// escaped for them. Every emitter writes such text through `comment(_:)` (or
/// `stringLiteral(_:)`), never as it comes: a carriage return, a NEL, a line or
/// paragraph separator, a vertical tab or form feed would end a `//` comment and
/// let the rest of the text compile as code, and `*/` would end a KDoc.
///
/// Comments keep `\n` (the paragraphs the wrapper lays out); everything a
/// compiler, an editor or a terminal could read as a line break or a control is
/// written `\u{HEX}`, a backslash `\\` (which Markdown, and so DocC and KDoc,
/// shows as one backslash), and in Kotlin the `/` of a `*/` and the `*` of a `/*`
/// as `\u{2F}` and `\u{2A}`. `decodeComment` reads it back to the same text.
enum SourceLanguage: Sendable, Equatable {
  case swift
  case kotlin

  /// `text` made safe for the inside of a comment in this language: a `//` line
  /// (Swift or Kotlin) or a `///` or KDoc line. `\n` is escaped too, unless
  /// `keepingParagraphs` (for the wrapper, which turns it into comment lines).
  func comment(_ text: String, keepingParagraphs: Bool = false) -> String {
    // Nearly every doc is printable ASCII with nothing to escape: then the
    // text is its own comment, and the scalar-by-scalar copy below (most of
    // the emitters' time on a large config) is skipped.
    if isPlainComment(text, keepingParagraphs: keepingParagraphs) { return text }
    return escapedComment(text, keepingParagraphs: keepingParagraphs)
  }

  /// `comment(_:keepingParagraphs:)` scalar by scalar, for any text.
  func escapedComment(_ text: String, keepingParagraphs: Bool) -> String {
    var out = String.UnicodeScalarView()
    var last: Unicode.Scalar? = nil
    for scalar in text.unicodeScalars {
      if scalar == "\\" {
        out.append(contentsOf: "\\\\".unicodeScalars)
      } else if scalar == "\n" ? !keepingParagraphs : SourceLanguage.needsEscape(scalar) {
        SourceLanguage.appendEscape(scalar, to: &out)
      } else if self == .kotlin && ((scalar == "/" && last == "*") || (scalar == "*" && last == "/")) {
        SourceLanguage.appendEscape(scalar, to: &out)
      } else {
        out.append(scalar)
      }
      last = out.last
    }
    return String(out)
  }

  /// Whether `comment(_:keepingParagraphs:)` would return `text` unchanged, by
  /// its bytes: ASCII from space to `~` or a tab (or `\n` when paragraphs are
  /// kept), no backslash, and in Kotlin no `*/` or `/*`. Anything else (any
  /// byte past ASCII included) takes the full escape.
  func isPlainComment(_ text: String, keepingParagraphs: Bool) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var previous: UInt8 = 0
      for byte in bytes {
        switch byte {
        case 0x20..<0x7F:
          if byte == UInt8(ascii: "\\") { return false }
          if self == .kotlin && ((byte == UInt8(ascii: "/") && previous == UInt8(ascii: "*"))
            || (byte == UInt8(ascii: "*") && previous == UInt8(ascii: "/"))) { return false }
        case 0x09: break
        case 0x0A: if !keepingParagraphs { return false }
        default: return false
        }
        previous = byte
      }
      return true
    }
  }

  /// `text` as a string literal of this language, quotes included, that
  /// evaluates to `text`: `"`, `\` (and Kotlin's `$`) escaped, and every line
  /// break and control written as a Unicode escape (`\u{…}` in Swift, `\uXXXX`
  /// in Kotlin, as a surrogate pair past the BMP).
  func stringLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "$" where self == .kotlin: out += "\\$"
      default:
        if SourceLanguage.needsEscape(scalar) || scalar == "\n" || scalar == "\t" {
          out += self == .swift ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : kotlinUnicodeEscape(scalar)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// `\uXXXX`, or two of them (a surrogate pair) past the BMP.
  private func kotlinUnicodeEscape(_ scalar: Unicode.Scalar) -> String {
    func hex(_ unit: UInt16) -> String {
      let digits = String(unit, radix: 16, uppercase: true)
      return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
    return String(scalar).utf16.map(hex).joined()
  }

  /// Every scalar that ends a line somewhere (CR, VT, FF, NEL, LS, PS), every
  /// other C0 and C1 control but tab and `\n`, DEL, and the bidirectional
  /// overrides and isolates that make code read other than it compiles.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A: return false
    case 0x00..<0x20, 0x7F, 0x80..<0xA0: return true
    case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  private static func appendEscape(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
    out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
  }

  /// The text `comment(_:)` escaped, read back: `\\` is a backslash and
  /// `\u{HEX}` the scalar it names; anything else stands for itself.
  static func decodeComment(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var out = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      if scalars[index] == "\\", index + 1 < scalars.count, scalars[index + 1] == "\\" {
        out.append("\\")
        index += 2
        continue
      }
      if scalars[index] == "\\", index + 2 < scalars.count, scalars[index + 1] == "u", scalars[index + 2] == "{",
        let close = scalars[(index + 3)...].firstIndex(of: "}"),
        let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 3)..<close])), radix: 16),
        let scalar = Unicode.Scalar(value)
      {
        out.append(scalar)
        index = close + 1
        continue
      }
      out.append(scalars[index])
      index += 1
    }
    return String(out)
  }
}
