import DuetSupport

/// Two columns where the second wraps under itself: a name, then a sentence that
/// may run longer than a line. For reports (`duet init`, `duet doctor`) whose
/// explanations must fit a terminal and a CI log without being cut off; only a
/// word longer than a whole line (a path) overflows, kept whole.
package enum HangingList {
  /// `rows` as lines no wider than `maxWidth`; a name wider than its column stands on a line of its own.
  /// Names and texts are `TerminalLine`s, escaped where they were made: they
  /// hold folder names and commands from the tree. A word of shown text is
  /// shown text, so the wrapped lines are escaped again unchanged.
  package static func lines(_ rows: [(TerminalLine, TerminalLine)], indent: String = "  ", maxWidth: Int = 100) -> [TerminalLine] {
    lines(rows.map { ($0.0.text, $0.1.text) }, indent: indent, maxWidth: maxWidth).map { TerminalLine(escaping: $0) }
  }

  /// The layout of `lines`, of text escaped already.
  private static func lines(_ rows: [(String, String)], indent: String, maxWidth: Int) -> [String] {
    let nameWidth = min(rows.map(\.0.count).max() ?? 0, max(8, maxWidth / 4))
    let hang = String(repeating: " ", count: indent.count + nameWidth + 2)
    let room = max(20, maxWidth - hang.count)
    var result: [String] = []
    for (name, text) in rows {
      let wrapped = wrap(text, width: room)
      if name.count > nameWidth {
        result.append(indent + name)
        result += wrapped.map { hang + $0 }
        continue
      }
      let first = indent + name + String(repeating: " ", count: nameWidth - name.count + 2)
      for (index, line) in wrapped.enumerated() { result.append((index == 0 ? first : hang) + line) }
      if wrapped.isEmpty { result.append(indent + name) }
    }
    return result
  }

  /// Words of `text` in lines of at most `width` characters; a word wider than
  /// that (a long path) stands whole on a line of its own, never broken, so it
  /// can still be copied (the terminal folds the one line that overflows).
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
