import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// The wrapping as it was before comments were written into byte buffers
/// (issue 20), kept only to check that the bytes did not change.
private enum StringWrapping {
  static func lines(_ text: String, prefix: String) -> [String] {
    var separator = prefix
    while separator.last == " " { separator.removeLast() }
    var result: [String] = []
    for (index, paragraph) in CommentText.paragraphs(text).enumerated() {
      if index > 0 { result.append(separator) }
      var line = ""
      var width = 0
      for word in paragraph.utf8.split(separator: UInt8(ascii: " ")) {
        let wordWidth = Substring(word).count
        if width == 0 {
          line = prefix + Substring(word)
          width = prefix.count + wordWidth
        } else if width + 1 + wordWidth <= CommentText.width {
          line += " " + Substring(word)
          width += 1 + wordWidth
        } else {
          result.append(line)
          line = prefix + Substring(word)
          width = prefix.count + wordWidth
        }
      }
      if width > 0 { result.append(line) }
    }
    return result
  }
}

@Suite("Comment wrapping into bytes")
struct CommentTextTests {
  static let texts = [
    "",
    "   ",
    "One line.",
    "Colour 12, with a doc comment long enough to wrap past the eightieth column of the generated comment in both languages.",
    "First paragraph\nof two lines.\n\nSecond paragraph.\n",
    "Folded line one\nFolded line two\n",
    "  padded \t\r\n\twith tabs\tinside words and CRs\r\n",
    String(repeating: "x", count: 120) + " short " + String(repeating: "y", count: 90),
    "Ünïcödé wörds cöunt as çharacters, nöt bytes: " + String(repeating: "é", count: 70) + " then more text after it.",
    "emoji 👩‍👩‍👧 are one column each " + String(repeating: "👍 ", count: 40),
    "\n\n\nblank lines first\n\n\n\nand many between\n\n",
    "double  spaces   between    words and a very long line that goes on and on past the end of the column",
  ]

  /// Every text wraps to the same lines, byte for byte, as the string-based wrapping did, under each prefix the emitters use.
  @Test(arguments: ["  /// ", "    // ", "      // ", "   * ", "/// ", "", "→ "])
  func sameLinesAsBefore(prefix: String) {
    for text in Self.texts {
      #expect(CommentText.lines(text, prefix: prefix) == StringWrapping.lines(text, prefix: prefix), "\(text.debugDescription)")
    }
  }

  /// The buffer form appends each line with its newline, after what the buffer held.
  @Test func writesLinesWithNewlines() {
    var bytes = Array("before\n".utf8)
    CommentText.write("A note.\n\nAnother.", prefix: "  // ", into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == "before\n  // A note.\n  //\n  // Another.\n")
  }
}
