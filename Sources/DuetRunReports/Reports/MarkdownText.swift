import DuetSupport

/// The one escaping of text for the Markdown duet writes (GitHub's step
/// summary), by where the text goes; what it writes is `Markdown`.
enum MarkdownText: OutputLanguage {
  /// Where in the summary a value goes.
  enum Context: Sendable {
    /// A table cell or a line of inline text: controls cleaned
    /// (`ControlText.clean`), Markdown's inline HTML kept inert, `|` as `\|`,
    /// CR and LF as spaces, so a value stays in its cell and on its line; and
    /// every character that opens inline Markdown (`` ` ``, `*`, `_`, `[`, `]`,
    /// `~`, `$`, `\`) backslash-escaped, so a path or a test name such as
    /// `x [click](https:evil)` shows as typed, not as a link, an image or a
    /// code span (GitHub also reads `$…$` as math).
    case cell
    /// Text inside duet's own inline HTML (a collapsed block's `<summary>`):
    /// HTML's escaping (`HTMLText`).
    case html
    /// The body of a fenced code block: controls cleaned, the lines kept;
    /// `codeBlock(_:)` chooses a fence longer than any backtick run in it.
    case codeBlock
    /// The inside of a code span (`codeSpan(_:)` fences it): controls cleaned,
    /// CR and LF as spaces; nothing else, since a code span shows its text as
    /// it is (an entity or a backslash in it would show too).
    case codeSpan
  }

  static var defaultContext: Context { .cell }

  static func escape(_ text: String, in context: Context) -> String {
    switch context {
    case .cell:
      return HTMLText.escape(inertInline(ControlText.clean(text)), in: ())
        .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    case .html: return HTMLText.escape(text, in: ())
    case .codeBlock: return ControlText.clean(text)
    case .codeSpan: return ControlText.clean(text).replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
  }

  /// The characters that open or close inline Markdown on GitHub, or a table cell.
  static let inlineSyntax: Set<Unicode.Scalar> = ["\\", "`", "*", "_", "[", "]", "~", "$", "|"]

  /// `text` with each of `inlineSyntax` backslash-escaped (CommonMark lets any
  /// ASCII punctuation be escaped, and GitHub's tables read `\|` as a pipe).
  private static func inertInline(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if inlineSyntax.contains(scalar) { out.append("\\") }
      out.append(scalar)
    }
    return String(out)
  }

  /// `text` as an inline code span, on one line: its fence one backtick longer
  /// than the longest run in it, and a space inside each fence when the text
  /// starts or ends with a backtick (or with spaces at both ends, which
  /// CommonMark would strip), so no backtick in it closes the span early.
  static func codeSpan(_ text: String) -> Markdown {
    let body = Markdown(escaping: text, in: .codeSpan)
    let fence = Array(repeating: "`" as Markdown, count: longestBacktickRun(body.text) + 1).joined()
    let padded = body.text.hasPrefix("`") || body.text.hasSuffix("`") || (body.text.hasPrefix(" ") && body.text.hasSuffix(" "))
    let pad: Markdown = padded ? " " : ""
    return "\(fence)\(pad)\(body)\(pad)\(fence)"
  }

  /// `text` as a fenced code block of `text` lines: its fence one backtick
  /// longer than the longest run in it (at least three), so no line closes it.
  static func codeBlock(_ text: String) -> Markdown {
    let body = Markdown(escaping: text, in: .codeBlock)
    let fence = Array(repeating: "`" as Markdown, count: max(3, longestBacktickRun(body.text) + 1)).joined()
    return "\(fence)text\n\(body)\n\(fence)"
  }

  static func longestBacktickRun(_ text: String) -> Int {
    var longest = 0, current = 0
    for character in text {
      if character == "`" { current += 1; longest = max(longest, current) } else { current = 0 }
    }
    return longest
  }
}
