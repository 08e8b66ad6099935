import DuetSupport

/// The generated Swift and Kotlin as an output language (issue 42, item 4):
/// the token files are built of `SourceLine`s, so text from the config can
/// reach them only through `SourceLanguage`'s escaping, whatever it is called.
enum SourceCode: OutputLanguage {
  enum Context: Sendable {
    /// Code: an identifier, a number or a type name duet checked when it read
    /// the config, which this leaves as it is. Anything that could end a line
    /// or a comment (a line break, a control, `*/`, a backslash) is written as
    /// a comment would write it, so unchecked text fails to compile rather
    /// than running as code.
    case code
    /// The inside of a one-line comment.
    case comment(SourceLanguage)
    /// The inside of a doc comment the wrapper lays out, `\n` kept.
    case paragraphs(SourceLanguage)
    /// A string literal, quotes included.
    case stringLiteral(SourceLanguage)
    /// A comment line the engine wrote in the file on disk, put back where it
    /// stood (`EngineProse`): kept as it is, but for anything that would end
    /// the line there, so it stays the one line it was.
    case keptLine
  }

  static var defaultContext: Context { .code }

  static func escape(_ text: String, in context: Context) -> String {
    switch context {
    case .code: SourceLanguage.kotlin.comment(text)
    case .comment(let language): language.comment(text)
    case .paragraphs(let language): language.comment(text, keepingParagraphs: true)
    case .stringLiteral(let language): language.stringLiteral(text)
    case .keptLine: keptLine(text)
    }
  }

  /// `text` with every scalar that ends a line in Swift, Kotlin or an editor
  /// (CR, VT, FF, NEL, LS, PS; LF cannot be there) written `\u{HEX}`.
  private static func keptLine(_ text: String) -> String {
    let breaks: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
    guard text.unicodeScalars.contains(where: { breaks.contains($0.value) }) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if breaks.contains(scalar.value) {
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

/// A line, or part of one, of a generated Swift or Kotlin file.
typealias SourceLine = Escaped<SourceCode>
