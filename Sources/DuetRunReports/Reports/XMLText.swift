import DuetSupport

/// The one escaping of text for the XML duet writes (the JUnit report), for
/// XML 1.0: ANSI colour sequences dropped first (`ControlText.clean`), so a
/// coloured log stays readable; `&`, `<`, `>` escaped; characters XML 1.0
/// cannot carry at all (most C0 controls, a lone surrogate's replacement,
/// U+FFFE, U+FFFF) become U+FFFD.
enum XMLText: OutputLanguage {
  /// Where in an element a value goes.
  enum Context: Sendable {
    /// Character data: `>` escaped too, so `]]>` cannot appear.
    case text
    /// An attribute value in double quotes: also `"`, `'`, and tab and LF as
    /// character references, so a parser's attribute normalisation keeps them.
    case attribute
  }

  static var defaultContext: Context { .text }

  static func escape(_ value: String, in context: Context) -> String {
    let inAttribute = context == .attribute
    var out = ""
    out.reserveCapacity(value.utf8.count)
    for scalar in ControlText.clean(value).unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where inAttribute: out += "&quot;"
      case "'" where inAttribute: out += "&apos;"
      case "\t" where inAttribute: out += "&#9;"
      case "\n" where inAttribute: out += "&#10;"
      case "\r": out += "&#13;"
      default:
        out.unicodeScalars.append(isAllowed(scalar) ? scalar : "\u{FFFD}")
      }
    }
    return out
  }

  /// XML 1.0's `Char`: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000 and up.
  static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9, 0xA, 0xD: return true
    case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
    default: return false
    }
  }
}
