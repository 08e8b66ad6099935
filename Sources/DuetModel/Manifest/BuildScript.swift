/// A Gradle script (Kotlin or Groovy) or a `Package.swift` read as tokens, so
/// that duet can find `include(...)`, `project(...)`, `.testTarget(...)` and the
/// like without running Gradle or SwiftPM. Comments are dropped (`//`, nested
/// `/* */`), and string literals are single tokens, so a `//` in a URL, a `)` in
/// a string or an `include(":x")` inside a `"""` block is never read as code.
package struct BuildScript {
  package enum Token: Equatable {
    /// An identifier: letters, digits, `_`.
    case word(String)
    /// A string literal's text with escapes resolved; nil when it is built at
    /// run time (`"${name}"`, `"$v"`, Swift's `"\(x)"`), so no fixed value is known.
    case literal(String?)
    /// Any other character that is not white space.
    case symbol(Character)
  }

  package private(set) var tokens: [Token] = []

  package init(_ text: String) {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "/" && at(1) == "/" {
        while index < scalars.count && scalars[index] != "\n" { index += 1 }
      } else if scalar == "/" && at(1) == "*" {
        index = Self.endOfBlockComment(scalars, from: index)
      } else if scalar == "\"" && at(1) == "\"" && at(2) == "\"" {
        let (token, end) = Self.textBlock(scalars, from: index)
        tokens.append(token)
        index = end
      } else if scalar == "\"" || scalar == "'" {
        let (token, end) = Self.quoted(scalars, from: index)
        tokens.append(token)
        index = end
      } else if Self.isIdentifier(scalar) {
        var word = String.UnicodeScalarView()
        while index < scalars.count && Self.isIdentifier(scalars[index]) {
          word.append(scalars[index])
          index += 1
        }
        tokens.append(.word(String(word)))
      } else {
        if !scalar.properties.isWhitespace { tokens.append(.symbol(Character(scalar))) }
        index += 1
      }
    }
  }

  /// The index just after the `/* */` comment that starts at `start`; comments nest.
  private static func endOfBlockComment(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var index = start
    func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    var depth = 0
    repeat {
      if scalars[index] == "/" && at(1) == "*" {
        depth += 1
        index += 2
      } else if scalars[index] == "*" && at(1) == "/" {
        depth -= 1
        index += 2
      } else {
        index += 1
      }
    } while depth > 0 && index < scalars.count
    return index
  }

  /// The `"""` block that starts at `start`, and the index just after it.
  private static func textBlock(_ scalars: [Unicode.Scalar], from start: Int) -> (Token, end: Int) {
    var index = start + 3
    func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    var text = String.UnicodeScalarView()
    var dynamic = false
    while index < scalars.count && !(scalars[index] == "\"" && at(1) == "\"" && at(2) == "\"") {
      if startsTemplate(scalars, index) { dynamic = true }
      text.append(scalars[index])
      index += 1
    }
    return (.literal(dynamic ? nil : String(text)), min(index + 3, scalars.count))
  }

  /// The `"..."` or `'...'` literal that starts at `start` (it ends at the line's
  /// end at the latest), and the index just after it.
  private static func quoted(_ scalars: [Unicode.Scalar], from start: Int) -> (Token, end: Int) {
    let quote = scalars[start]
    var index = start + 1
    var text = String.UnicodeScalarView()
    var dynamic = false
    while index < scalars.count && scalars[index] != quote && scalars[index] != "\n" {
      if scalars[index] == "\\", index + 1 < scalars.count {
        if scalars[index + 1] == "(" { dynamic = true }
        text.append(scalars[index + 1])
        index += 2
        continue
      }
      if quote == "\"" && startsTemplate(scalars, index) { dynamic = true }
      text.append(scalars[index])
      index += 1
    }
    if index < scalars.count && scalars[index] == quote { index += 1 }
    return (.literal(dynamic ? nil : String(text)), index)
  }

  /// `$name` or `${` in a Kotlin or Groovy string: a template, not text.
  private static func startsTemplate(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
    guard scalars[index] == "$", index + 1 < scalars.count else { return false }
    let next = scalars[index + 1]
    return next == "{" || next == "_" || next.properties.isAlphabetic
  }

  static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
  }

  /// The positions of `word` used as a name of its own: not a member (`x.word`).
  package func positions(of word: String) -> [Int] {
    tokens.indices.filter { tokens[$0] == .word(word) && ($0 == 0 || tokens[$0 - 1] != .symbol(".")) }
  }

  /// The positions of `.member`: the member's word, after a `.`.
  func positions(ofMember member: String) -> [Int] {
    tokens.indices.filter { tokens[$0] == .word(member) && $0 > 0 && tokens[$0 - 1] == .symbol(".") }
  }

  /// When the token at `open` is `(`, the tokens between it and the `)` that
  /// closes it; nil when there is no `(` there or it never closes.
  package func arguments(at open: Int) -> ArraySlice<Token>? {
    guard open < tokens.count, tokens[open] == .symbol("(") else { return nil }
    var depth = 0
    for index in open..<tokens.count {
      if tokens[index] == .symbol("(") { depth += 1 } else if tokens[index] == .symbol(")") { depth -= 1 }
      if depth == 0 { return tokens[(open + 1)..<index] }
    }
    return nil
  }

  /// The arguments of each call `name(...)` (or `.name(...)` with `member`).
  package func calls(_ name: String, member: Bool = false) -> [ArraySlice<Token>] {
    (member ? positions(ofMember: name) : positions(of: name)).compactMap { arguments(at: $0 + 1) }
  }

  /// The fixed literals among `tokens`, in order.
  package static func literals(_ tokens: ArraySlice<Token>) -> [String] {
    tokens.compactMap { if case .literal(let text?) = $0 { return text } else { return nil } }
  }

  /// The literal after `label:` in an argument list, at the top level of it.
  package static func argument(_ label: String, in arguments: ArraySlice<Token>) -> String? {
    var depth = 0
    var index = arguments.startIndex
    while index < arguments.endIndex {
      switch arguments[index] {
      case .symbol("("), .symbol("["): depth += 1
      case .symbol(")"), .symbol("]"): depth -= 1
      case .word(label) where depth == 0 && index + 2 < arguments.endIndex && arguments[index + 1] == .symbol(":"):
        if case .literal(let text) = arguments[index + 2] { return text }
      default: break
      }
      index += 1
    }
    return nil
  }
}
