/// The one escaping of text for the HTML duet writes (the timings page, the
/// history report, the step summary's inline HTML): `&`, `<`, `>`, `"` and `'`
/// become character references, so tree text is text in element content and in
/// quoted attribute values alike; controls (C0 but tab and line feed, DEL, C1)
/// become U+FFFD, which HTML would otherwise refuse or read as markup-adjacent
/// noise, and so do bidirectional overrides, embeddings and isolates, which
/// would reorder the rest of their paragraph, duet's own words included (an
/// element does not end them). The browser reads the result back as the same
/// string (but for these).
package enum HTMLText: OutputLanguage {
  package static var defaultContext: Void { () }

  /// `text` as HTML that shows it.
  package static func escaped(_ text: String) -> HTML {
    HTML(escaping: text)
  }

  package static func escape(_ text: String, in context: Void) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\t", "\n": out.unicodeScalars.append(scalar)
      default:
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || ControlText.reordersText(scalar) {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
