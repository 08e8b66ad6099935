import DuetSupport

/// The one escaping of text for the Markdown duet writes (GitHub's step
/// summary), by where the text goes; what it writes is `Markdown`.
package enum MarkdownText: OutputLanguage {
  /// Where in the summary a value goes.
  package enum Context: Sendable {
    /// A table cell or a line of inline text: controls cleaned
    /// (`ControlText.clean`), Markdown's inline HTML kept inert, `|` as `\|`,
    /// CR and LF as spaces, so a value stays in its cell and on its line.
    case cell
    /// Text inside duet's own inline HTML (a collapsed block's `<summary>`):
    /// HTML's escaping (`HTMLText`).
    case html
    /// The body of a fenced code block: controls cleaned, the lines kept;
    /// `codeBlock(_:)` chooses a fence longer than any backtick run in it.
    case codeBlock
  }

  package static var defaultContext: Context { .cell }

  package static func escape(_ text: String, in context: Context) -> String {
    switch context {
    case .cell:
      return HTMLText.escape(ControlText.clean(text), in: ())
        .replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    case .html: return HTMLText.escape(text, in: ())
    case .codeBlock: return ControlText.clean(text)
    }
  }

  /// `text` as a fenced code block of `text` lines: its fence one backtick
  /// longer than the longest run in it (at least three), so no line closes it.
  package static func codeBlock(_ text: String) -> Markdown {
    let body = Markdown(escaping: text, in: .codeBlock)
    let fence = Array(repeating: "`" as Markdown, count: max(3, longestBacktickRun(body.text) + 1)).joined()
    return "\(fence)text\n\(body)\n\(fence)"
  }

  package static func longestBacktickRun(_ text: String) -> Int {
    var longest = 0, current = 0
    for character in text {
      if character == "`" { current += 1; longest = max(longest, current) } else { current = 0 }
    }
    return longest
  }
}
