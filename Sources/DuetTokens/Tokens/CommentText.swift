import DuetModel
import DuetSupport

/// Turns a token's `doc` or `note` into comment lines wrapped at 80 columns,
/// keeping its paragraphs, so the generated files read like hand-written ones.
package enum CommentText {
  /// The column no comment line passes.
  static let width = 80

  /// The paragraphs of a YAML text. A folded scalar (`>-`) keeps a paragraph
  /// break as a single newline, so when the text has no blank line every line
  /// is a paragraph; a literal scalar (`|`) separates paragraphs with a blank
  /// line, and then the lines between blank lines are one paragraph.
  static func paragraphs(_ text: String) -> [String] {
    let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { trimmed($0) }
    let hasBlankLine = lines.contains { $0.isEmpty }
    var result: [String] = []
    var current: [Substring.UTF8View] = []
    func flush() {
      guard !current.isEmpty else { return }
      var bytes: [UInt8] = []
      for (index, line) in current.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: " ")) }
        bytes.append(contentsOf: line)
      }
      result.append(String(decoding: bytes, as: UTF8.self))
      current = []
    }
    for line in lines {
      if line.isEmpty || !hasBlankLine {
        flush()
        if !line.isEmpty { current = [line] }
      } else {
        current.append(line)
      }
    }
    flush()
    return result
  }

  /// `text` as lines that each start with `prefix` (e.g. `"  /// "`) and end by
  /// column 80; paragraphs are separated by the prefix alone, trimmed.
  /// A word longer than a line stands on a line of its own. Columns count
  /// characters, so a non-ASCII word is as wide as it looks.
  package static func lines(_ text: String, prefix: String) -> [String] {
    var bytes: [UInt8] = []
    write(text, prefix: prefix, into: &bytes)
    guard !bytes.isEmpty else { return [] }
    return bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
  }

  /// `lines(text, prefix:)`, each line and its newline appended to `out`: the
  /// emitters wrap straight into the file's bytes, with no string per line or word.
  static func write(_ text: String, prefix: String, into out: inout [UInt8]) {
    var text = text
    text.withUTF8 { source in
      let lines = trimmedLines(source)
      // With a blank line among them, the lines between blank lines are one
      // paragraph, else every line is one.
      let hasBlankLine = lines.contains { $0.isEmpty }
      var filler = LineFiller(prefix: prefix)
      for (index, line) in lines.enumerated() where !line.isEmpty {
        if !hasBlankLine || index == 0 || lines[index - 1].isEmpty { filler.startParagraph(into: &out) }
        filler.writeWords(of: line, in: source, into: &out)
      }
      filler.finish(into: &out)
    }
  }

  /// The lines of `source` as byte ranges, each without its leading and
  /// trailing blanks (an all-blank line is an empty range).
  private static func trimmedLines(_ source: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    for index in 0...source.count where index == source.count || source[index] == UInt8(ascii: "\n") {
      var low = start, high = index
      while low < high && isBlank(source[low]) { low += 1 }
      while high > low && isBlank(source[high - 1]) { high -= 1 }
      lines.append(low..<high)
      start = index + 1
    }
    return lines
  }

  /// Fills comment lines word by word: each line opens with the prefix, and a
  /// word that would pass column 80 starts the next one.
  private struct LineFiller {
    let prefix: [UInt8]
    /// The prefix without its trailing spaces: the line between paragraphs.
    let separator: ArraySlice<UInt8>
    let prefixWidth: Int
    var paragraphs = 0
    /// The open line's columns so far; 0 when no line is open.
    var width = 0

    init(prefix: String) {
      let bytes = Array(prefix.utf8)
      var separatorEnd = bytes.count
      while separatorEnd > 0 && bytes[separatorEnd - 1] == UInt8(ascii: " ") { separatorEnd -= 1 }
      self.prefix = bytes
      separator = bytes[..<separatorEnd]
      prefixWidth = bytes.allSatisfy { $0 < 0x80 } ? bytes.count : prefix.count
    }

    /// Closes the open line and, after the first paragraph, writes the
    /// separator line.
    mutating func startParagraph(into out: inout [UInt8]) {
      if width > 0 { out.append(UInt8(ascii: "\n")) }
      if paragraphs > 0 {
        out.append(contentsOf: separator)
        out.append(UInt8(ascii: "\n"))
      }
      paragraphs += 1
      width = 0
    }

    /// Writes the space-separated words of `source[line]`.
    mutating func writeWords(of line: Range<Int>, in source: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
      var position = line.lowerBound
      while position < line.upperBound {
        if source[position] == UInt8(ascii: " ") { position += 1; continue }
        var end = position
        var ascii = true
        while end < line.upperBound && source[end] != UInt8(ascii: " ") {
          if source[end] >= 0x80 { ascii = false }
          end += 1
        }
        write(word: UnsafeBufferPointer(rebasing: source[position..<end]), ascii: ascii, into: &out)
        position = end
      }
    }

    /// Writes one word on the open line, or on a new one when it does not fit.
    mutating func write(word: UnsafeBufferPointer<UInt8>, ascii: Bool, into out: inout [UInt8]) {
      let wordWidth = ascii ? word.count : String(decoding: word, as: UTF8.self).count
      if width == 0 {
        out.append(contentsOf: prefix)
        width = prefixWidth + wordWidth
      } else if width + 1 + wordWidth <= CommentText.width {
        out.append(UInt8(ascii: " "))
        width += 1 + wordWidth
      } else {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: prefix)
        width = prefixWidth + wordWidth
      }
      out.append(contentsOf: word)
    }

    /// Closes the open line.
    func finish(into out: inout [UInt8]) {
      if width > 0 { out.append(UInt8(ascii: "\n")) }
    }
  }

  private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

  /// A line's bytes without leading and trailing spaces, tabs and CRs.
  static func trimmed(_ line: Substring.UTF8View) -> Substring.UTF8View {
    var line = line
    let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    while let first = line.first, blank(first) { line = line.dropFirst() }
    while let last = line.last, blank(last) { line = line.dropLast() }
    return line
  }
}

/// Builds a generated file line by line, with the 2-space indentation both
/// languages use, into one byte buffer: no string per line, one per file.
struct SourceText {
  private(set) var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1 << 16) }

  mutating func add(_ line: SourceLine, indent: Int = 0) {
    if !line.isEmpty {
      for _ in 0..<indent { bytes.append(0x20); bytes.append(0x20) }
      write(line)
    }
    bytes.append(UInt8(ascii: "\n"))
  }

  mutating func add(contentsOf more: [SourceLine]) {
    for line in more { add(line) }
  }

  mutating func blank() { bytes.append(UInt8(ascii: "\n")) }

  /// One line at `indent` levels from what `write` appends: the tables'
  /// thousands of entries are written in place, with no `String` built per
  /// line or per value.
  mutating func line(indent: Int = 0, _ write: (inout SourceText) -> Void) {
    for _ in 0..<indent { bytes.append(0x20); bytes.append(0x20) }
    write(&self)
    bytes.append(UInt8(ascii: "\n"))
  }

  /// How many bytes are written: a mark to measure or take back a line from.
  var count: Int { bytes.count }

  /// The characters of the line that starts at byte `start` and ends the text,
  /// its newline not counted; a byte count when the line is printable ASCII.
  func columns(ofLineFrom start: Int) -> Int {
    let line = bytes[start..<(bytes.count - 1)]
    return line.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? line.count : String(decoding: line, as: UTF8.self).count
  }

  /// Takes back everything written from byte `start` on.
  mutating func remove(from start: Int) { bytes.removeSubrange(start...) }

  /// Appends `text` to the line `line(indent:_:)` is writing.
  mutating func write(_ text: SourceLine) {
    // The string's own bytes in one copy, not the generic element-wise append.
    var text = text.text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Appends `name`, an identifier duet checked, escaped as code
  /// (`SourceCode.Context.code`): it is written as it is.
  mutating func write(code name: String) {
    write(SourceLine(escaping: name))
  }

  /// Appends `value` as `count` upper-case hex digits (`tokenHexDigits`).
  mutating func writeHex(_ value: UInt32, count: Int) {
    for index in stride(from: count - 1, through: 0, by: -1) {
      let digit = UInt8((value >> (4 * UInt32(index))) & 0xF)
      bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
    }
  }

  /// `text`, tree text, escaped for `language` (`SourceLanguage.comment`) and
  /// wrapped as comment lines (`CommentText.lines`).
  mutating func comment(_ text: String, prefix: String, in language: SourceLanguage) {
    CommentText.write(language.comment(text, keepingParagraphs: true), prefix: prefix, into: &bytes)
  }

  /// The file's text, ending with one newline.
  var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The bytes every generated file starts with, which mark it as duet's own.
let generatedBannerStart: SourceLine = "// Generated by `duet design-tokens` from "

/// The banner every generated file opens with, in `//` comments both languages
/// read; it names where the tokens came from (the config, or its DTCG files),
/// escaped for the file's language.
func generatedBanner(_ config: TokenConfig, _ language: SourceLanguage) -> [SourceLine] {
  [
    "\(generatedBannerStart)\(config.sourceDescription, in: .comment(language)).",
    "// Do not edit: change the config and run `duet design-tokens`. A hand edit",
    "// fails `duet design-tokens --check`.",
  ]
}

/// A number as both languages write a floating-point literal (`17.0`, `-0.01`).
func floatLiteral(_ value: Double) -> String {
  let text = "\(value)"
  // Bytes, not `String.contains`: with Foundation imported that is a locale-aware search.
  if text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }) { return text }
  return text + ".0"
}
