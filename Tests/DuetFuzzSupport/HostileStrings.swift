import Foundation

/// Strings that try to break out of whatever duet writes them into: every line
/// break Unicode knows, C0 and C1 controls, NUL, terminal escape sequences,
/// comment and string delimiters of Swift and Kotlin, GitHub expressions,
/// shell substitutions, workflow commands, YAML 1.1 booleans and nulls, GitLab
/// keywords, XML and Markdown specials, bidi overrides. Seeded, so every case
/// replays from its seed and number.
package struct HostileStrings {
  /// Pieces a hostile string is made of.
  package static let pieces: [String] = lineBreaks + controls + [
    "\u{1B}[31m", "\u{1B}[2J", "\u{1B}]0;pwned\u{07}", "\u{1B}]8;;http://x\u{1B}\\", "\u{1B}P", "\u{9B}1m",
    "*/", "/*", "/**", "//", "\"\"\"", "\"", "'", "\\", "\\u{41}", "\\(x)", "${x}", "$x", "${{ secrets.TOKEN }}",
    "$(touch PWNED)", "`touch PWNED`", "; touch PWNED", "::error title=spoof::x", "\n::error::x", "::set-output name=x::y",
    "yes", "No", "on", "OFF", "y", "n", "null", "~", "True", "false", "0x1F", "1_000", ".inf",
    "stages", "variables", "image", "include", "default", "workflow", "pages",
    "# ", ": ", "- ", "? ", "&a", "*a", "!!str", "%", "@", "|", ">", "[", "]", "{", "}", ",",
    "<", ">", "&", "&amp;", "]]>", "<!--", "-->", "\u{FFFE}", "\u{FEFF}", "\u{202E}", "\u{2066}", "💥", "é", " ", "  ",
  ]

  /// CR, LF, CRLF, VT, FF, NEL, LS, PS.
  package static let lineBreaks = ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]

  /// Every C0 control, DEL, and every C1 control.
  package static let controls: [String] = (Array(0x00..<0x20) + [0x7F] + Array(0x80..<0xA0)).map { String(Unicode.Scalar(UInt8($0))) }

  package var random: SeededRandom

  package init(seed: UInt64) { random = SeededRandom(seed: seed) }

  /// One to five pieces between plain words, or, one time in eight, one piece alone.
  package mutating func next() -> String {
    if random.below(8) == 0 { return random.pick(Self.pieces) }
    var text = random.pick(["Card", "a", "", "The page behind"])
    for _ in 0...random.below(5) {
      text += random.pick(Self.pieces) + random.pick(["", "word", " x ", "static let injected = 1"])
    }
    return text
  }
}
