import DuetModel
import DuetSupport

/// Compares two Swift or Kotlin sources by their code alone: comments,
/// blank lines, indentation, line breaks and a trailing comma before `)`, `]`
/// or `}` are set aside, every other token must match exactly (hex case and
/// number spelling included). This is how a token file the Duet toolchain's
/// engine wrote is checked: its layout and words are its own, its code must be
/// what the config generates.
enum CodeComparison {
  /// One token of code and the 1-based line it starts on.
  struct Token: Sendable, Equatable {
    var text: Substring
    var line: Int
  }

  /// Nil when the two agree by code; otherwise where they part: the line of
  /// `onDisk` holding the first differing token, with that line and the
  /// generated line the token should have been on (nil where a side ended).
  static func firstDifference(_ onDisk: String, _ generated: String) -> TokenReport.Difference? {
    let old = tokens(onDisk)
    let new = tokens(generated)
    var index = 0
    while index < old.count && index < new.count && old[index].text == new[index].text { index += 1 }
    if index == old.count && index == new.count { return nil }
    let oldLines = lines(onDisk)
    let newLines = lines(generated)
    return TokenReport.Difference(
      line: index < old.count ? old[index].line : oldLines.count + 1,
      onDisk: index < old.count ? line(old[index].line, of: oldLines) : nil,
      generated: index < new.count ? line(new[index].line, of: newLines) : nil)
  }

  /// Lines split at every `\n` scalar, as the lexer counts them (a `\r\n` is
  /// one Swift `Character`, so splitting characters would count fewer).
  static func lines(_ text: String) -> [String] {
    text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
  }

  /// Line `number` (1-based) without a trailing `\r`, or "" past the end.
  static func line(_ number: Int, of lines: [String]) -> String {
    guard number >= 1, number <= lines.count else { return "" }
    let text = lines[number - 1]
    return text.hasSuffix("\r") ? String(text.unicodeScalars.dropLast()) : text
  }

  /// Whether the two hold the same code.
  static func sameCode(_ a: String, _ b: String) -> Bool { firstDifference(a, b) == nil }

  /// The code tokens of `source`, trailing commas dropped.
  static func tokens(_ source: String) -> [Token] {
    var lexer = Lexer(source)
    var raw: [Token] = []
    while let token = lexer.next() { raw.append(token) }
    var result: [Token] = []
    result.reserveCapacity(raw.count)
    for (index, token) in raw.enumerated() {
      if token.text == ",", index + 1 < raw.count, [")", "]", "}"].contains(raw[index + 1].text) { continue }
      result.append(token)
    }
    return result
  }

  /// A small lexer for the C-family surface both languages share: words,
  /// numbers, string literals (`"…"` and `"""…"""`), runs of operator
  /// characters, and single punctuation; `//` and nested `/* */` comments skipped.
  struct Lexer {
    let scalars: [Unicode.Scalar]
    let source: String
    var offsets: [String.Index]
    var position = 0
    var line = 1

    init(_ source: String) {
      self.source = source
      var scalars: [Unicode.Scalar] = []
      var offsets: [String.Index] = []
      var index = source.unicodeScalars.startIndex
      while index < source.unicodeScalars.endIndex {
        scalars.append(source.unicodeScalars[index])
        offsets.append(index)
        index = source.unicodeScalars.index(after: index)
      }
      offsets.append(source.unicodeScalars.endIndex)
      self.scalars = scalars
      self.offsets = offsets
    }

    func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
      position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    mutating func advance() {
      if scalars[position] == "\n" { line += 1 }
      position += 1
    }

    static func isWord(_ c: Unicode.Scalar) -> Bool {
      c == "_" || c == "$" || c.properties.isAlphabetic || ("0"..."9").contains(c)
    }

    static let operatorCharacters: Set<Unicode.Scalar> = ["+", "-", "*", "/", "%", "=", "<", ">", "!", "&", "|", "^", "~", "?"]

    /// The next token of code, or nil at the end of the source.
    mutating func next() -> Token? {
      skipSpaceAndComments()
      guard let c = peek() else { return nil }
      let start = position
      let startLine = line
      if c == "\"" {
        skipStringLiteral()
      } else if ("0"..."9").contains(c) {
        skipNumber()
      } else if Self.isWord(c) || c == "#" || c == "@" || c == "`" {
        skipWord(startingWith: c)
      } else if Self.operatorCharacters.contains(c) {
        skipOperator()
      } else {
        advance()
      }
      return Token(text: source[offsets[start]..<offsets[position]], line: startLine)
    }

    /// Moves past whitespace, line breaks and comments up to the next token.
    mutating func skipSpaceAndComments() {
      while let c = peek() {
        if c == " " || c == "\t" || c == "\n" || c == "\r" {
          advance()
        } else if c == "/" && peek(1) == "/" {
          // A carriage return ends a line comment in both languages, as `\n` does.
          while let d = peek(), d != "\n", d != "\r" { advance() }
        } else if c == "/" && peek(1) == "*" {
          skipBlockComment()
        } else {
          break
        }
      }
    }

    /// Moves past a `/* */` comment, counting the nested ones it holds, or to
    /// the end when it is not closed.
    mutating func skipBlockComment() {
      var depth = 0
      repeat {
        if peek() == "/" && peek(1) == "*" {
          depth += 1
          advance()
          advance()
        } else if peek() == "*" && peek(1) == "/" {
          depth -= 1
          advance()
          advance()
        } else {
          advance()
        }
      } while depth > 0 && peek() != nil
    }

    /// Moves past a `"…"` or `"""…"""` literal; a one-line literal ends at its
    /// line's end when it is not closed.
    mutating func skipStringLiteral() {
      let triple = peek(1) == "\"" && peek(2) == "\""
      advance()
      if triple {
        advance()
        advance()
        while peek() != nil && !(peek() == "\"" && peek(1) == "\"" && peek(2) == "\"") { advance() }
        for _ in 0..<3 where peek() != nil { advance() }
      } else {
        while let d = peek(), d != "\"", d != "\n" {
          if d == "\\" && peek(1) != nil { advance() }
          advance()
        }
        if peek() == "\"" { advance() }
      }
    }

    /// `0x1A`, `34`, `0.5`, `1e3`: a digit run with letters and one `.` before a digit.
    mutating func skipNumber() {
      while let d = peek(), Self.isWord(d) || (d == "." && peek(1).map { ("0"..."9").contains($0) } == true) { advance() }
    }

    /// Moves past a word, a `#`/`@` attribute or directive, or a `` `quoted` `` name.
    mutating func skipWord(startingWith c: Unicode.Scalar) {
      advance()
      if c == "`" {
        while let d = peek(), d != "`", d != "\n" { advance() }
        if peek() == "`" { advance() }
      } else {
        while let d = peek(), Self.isWord(d) { advance() }
      }
    }

    /// Moves past a run of operator characters, stopping where a comment starts.
    mutating func skipOperator() {
      while let d = peek(), Self.operatorCharacters.contains(d),
        !(d == "/" && (peek(1) == "/" || peek(1) == "*"))
      {
        advance()
      }
    }
  }
}
