import Foundation
import Testing
@testable import DuetHistory

/// A lane's fingerprint is its cache key and its history's: the serialized
/// parts must stay byte for byte what earlier duets wrote, or every pass
/// recorded before would miss. Each part is written on one line, a line feed
/// as `\n`, as Foundation's `replacingOccurrences` wrote it.
@Suite("A fingerprint's lines are written as before")
struct FingerprintLinesTests {
  static let texts = [
    "", "plain", "\n", "\n\n", "a\nb", "a\r\nb", "\r\n", "trailing\n", "\nleading", "é\u{301}\nx",
    "👩‍👩‍👧\n👍🏽", "\\n already", "tab\tand\u{0B}vt\u{85}nel", "a\n\r\nb\n", String(repeating: "x\n", count: 50),
  ]

  @Test(arguments: texts)
  func oneLineIsFoundationsReplace(_ text: String) {
    #expect(FingerprintParts.oneLine(text) == text.replacingOccurrences(of: "\n", with: "\\n"))
    #expect(Array(FingerprintParts.oneLine(text).utf8) == Array(text.replacingOccurrences(of: "\n", with: "\\n").utf8))
  }

  /// The parts of a lane whose command spans lines serialize as before.
  @Test func aMultiLineCommandSerializesAsBefore() {
    var parts = FingerprintParts(command: "set -e\r\necho a\necho b\n", dir: ".", env: "e", duet: "1.0")
    parts.files = [.init(path: "src/a\nb.swift", sha256: "00")]
    #expect(parts.serialized == """
      duet-lane-fingerprint v2
      command set -e\r\\necho a\\necho b\\n
      dir .
      env e
      platform \(parts.platform)
      duet 1.0
      file 00 src/a\\nb.swift

      """)
  }
}
