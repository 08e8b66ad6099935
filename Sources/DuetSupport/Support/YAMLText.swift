import Foundation

/// The one escaping of text for YAML duet writes (init's manifest, the GitHub
/// and GitLab workflows): scalars plain when that reads back as the same string
/// in YAML 1.2 and 1.1 alike, double-quoted otherwise, so no value a user typed
/// turns into a boolean, a null, a number or a comment on the way out; and
/// comment text with every line break and control escaped, so a folder name
/// cannot end a comment and start a key. What it writes is `YAML`.
package enum YAMLText: OutputLanguage {
  /// Where in a YAML document a value goes.
  package enum Context: Sendable {
    /// A scalar (a value, a key, a list item): plain or double-quoted.
    case scalar
    /// The inside of a `#` comment: one line, whatever it holds.
    case comment
    /// A name of letters, digits, `-` and `_` that starts with a letter or `_`
    /// (a job id): plain, as GitHub and GitLab show it, when it is not a word
    /// YAML reads as a boolean or a null (`inf` and `nan` are strings in YAML,
    /// though Swift's `Double` reads them); anything else as `scalar`.
    case identifier
    /// One line YAML takes as written (a line of a block scalar, `run: |` or
    /// `sh: >-`; comment text already escaped and cut into lines): a line break
    /// or a control, which such a line cannot hold, becomes U+FFFD.
    case line
  }

  package static var defaultContext: Context { .scalar }

  /// The words YAML 1.1 (GitLab, PyYAML) or 1.2 reads as a boolean or a null.
  package static let reservedWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]

  package static func escape(_ text: String, in context: Context) -> String {
    switch context {
    case .scalar: return scalarText(text)
    case .comment: return escaped(text, quote: false)
    case .identifier: return isPlainIdentifier(text) ? text : scalarText(text)
    case .line: return String(String.UnicodeScalarView(text.unicodeScalars.map { isUnsafe($0) ? "\u{FFFD}" : $0 }))
    }
  }

  /// `text` as a YAML scalar.
  package static func scalar(_ text: String) -> YAML { YAML(escaping: text) }

  /// `text` for the inside of a `#` comment.
  package static func comment(_ text: String) -> YAML { YAML(escaping: text, in: .comment) }

  /// A flow list: `[a, b]`.
  package static func list(_ items: [String]) -> YAML {
    "[\(items.map(scalar).joined(separator: ", "))]"
  }

  private static func isPlainIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
    return text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
      && !reservedWords.contains(text.lowercased())
  }

  /// A line break, a control but tab, or a byte-order mark or bidirectional override.
  private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9: return false
    case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: return true
    default: return ControlText.reordersText(scalar)
    }
  }

  private static func scalarText(_ text: String) -> String {
    let plainSafe = !text.isEmpty
      && text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }
      && !"-?:,[]{}#&*!|>'\"%@` ".unicodeScalars.contains(text.unicodeScalars.first!)
      && !text.contains(": ") && !text.contains(" #") && !text.hasSuffix(":") && !text.hasSuffix(" ")
      && !text.contains(where: { "[]{},".contains($0) })
      && !reservedWords.contains(text.lowercased())
      && Double(text) == nil && !looksNumeric(text)
    if plainSafe { return text }
    return "\"" + escaped(text, quote: true) + "\""
  }

  /// The lines of a folded block scalar (after `key: >-`) holding `text`, cut at
  /// its spaces so that each line, after `indent`, fits in `width` columns where
  /// the words allow; YAML folds each line break back into the one space it was.
  /// nil when folding could change the text (not printable ASCII, a line break,
  /// a tab, two spaces in a row, a space at either end): write `scalar` then.
  package static func folded(_ text: String, indent: String, width: Int) -> [YAML]? {
    guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }),
          !text.contains("  "), !text.hasPrefix(" "), !text.hasSuffix(" ") else { return nil }
    var lines: [YAML] = [], line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && indent.count + line.count + 1 + word.count > width {
        lines.append(YAML(escaping: indent + line, in: .line))
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    lines.append(YAML(escaping: indent + line, in: .line))
    return lines
  }

  /// `text` with YAML's double-quoted escapes for `\`, (when `quote`) `"`, and
  /// every scalar that is a line break in YAML 1.1 or 1.2 (LF, CR, NEL, LS, PS),
  /// a control (C0, DEL, C1), a byte-order mark or a bidirectional override.
  private static func escaped(_ text: String, quote: Bool) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"" where quote: out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += quote ? "\\t" : "\t"
      case "\u{85}": out += "\\N"
      case "\u{2028}": out += "\\L"
      case "\u{2029}": out += "\\P"
      default:
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: out += String(format: "\\x%02x", scalar.value)
        case 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0xFFFE, 0xFFFF: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// What YAML 1.1 reads as a number or a time that Swift's `Double` does
  /// not: `0x1F`, `0o17`, binary `0b11`, `1_000`, `+.inf`, `.NaN`, sexagesimal
  /// `1:30`, and a timestamp (`timestamp`).
  private static func looksNumeric(_ text: String) -> Bool {
    let lower = text.lowercased()
    if [".inf", "+.inf", "-.inf", ".nan"].contains(lower) { return true }
    if startsLikeADate(lower), lower.range(of: timestamp, options: .regularExpression) != nil { return true }
    guard let first = lower.unicodeScalars.first, "0123456789+-.".unicodeScalars.contains(first) else { return false }
    let unsigned = lower.drop { $0 == "+" || $0 == "-" }
    return lower.unicodeScalars.allSatisfy { "0123456789abcdefox_.:+-".unicodeScalars.contains($0) }
      && (lower.contains("_") || lower.contains(":") || unsigned.hasPrefix("0x") || unsigned.hasPrefix("0o") || unsigned.hasPrefix("0b"))
  }

  /// A YAML 1.1 timestamp as PyYAML or Ruby's Psych (GitLab) reads one, a date
  /// (`2026-01-01`, Psych also `2026-1-1`) or a date and time: plain, a lane or
  /// folder so named would reach them as a date, which a safe loader refuses.
  private static let timestamp = #"^-?[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(([t]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?([ \t]*(z|[-+][0-9]{1,2}(:?[0-9]{2})?))?)?$"#

  /// Whether `text` opens as `timestamp` must (`-?` four digits, `-`, a digit):
  /// a byte check, so the regular expression, which costs a `duet workflow`
  /// of 100,000 lanes a third of its time when run on every plain scalar,
  /// runs only for the rare name shaped like a date.
  private static func startsLikeADate(_ text: String) -> Bool {
    var bytes = text.utf8[...]
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    guard bytes.count >= 6 else { return false }
    let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    let head = Array(bytes.prefix(6))
    return head[0..<4].allSatisfy(isDigit) && head[4] == UInt8(ascii: "-") && isDigit(head[5])
  }
}
