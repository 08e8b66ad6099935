/// A line duet prints to a terminal or a CI log, and the only text the
/// printed output takes (issue 42, item 4): duet's own words as literals,
/// anything interpolated (a lane's name, a path, a reason) escaped by
/// `ControlText.shown` on the way in, so tree text cannot start a line of its
/// own (`x\n::error::…`) or act on the terminal (`ESC ]`), whatever its
/// variable is called. Several lines are joined with a literal `"\n"`.
package typealias TerminalLine = Escaped<ControlText>

/// The terminal's language: text escaped by `shown`, or a line of a lane's
/// output shown as the lane wrote it, its colours and tabs kept.
extension ControlText: OutputLanguage {
  package enum Context: Sendable {
    /// Tree text, a reason, a path: on one line, every control escaped (`shown`).
    case text
    /// A line of a lane's output (a failed lane's log tail): the console's
    /// last guard (`terminal`), so a tool's colours and tabs stay, and a line
    /// break, escaped, keeps it to its line.
    case laneOutput
  }

  package static var defaultContext: Context { .text }

  package static func escape(_ text: String, in context: Context) -> String {
    switch context {
    case .text: return shown(text)
    case .laneOutput: return text.split(separator: "\n", omittingEmptySubsequences: false).map { terminal(String($0)) }.joined(separator: "\\n")
    }
  }
}

extension Escaped where Language == ControlText {
  /// Each line of `text`, escaped: for a report a lower layer built as one
  /// String of lines, its tree text shown already (`shown` leaves shown text
  /// as it is), so what it escapes is only what slipped through, and the
  /// breaks between the lines are kept.
  package static func lines(of text: String) -> [TerminalLine] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalLine(escaping: String($0)) }
  }
}
