import DuetSupport

/// Columns padded to their widest cell; the last column is cut to fit the terminal.
package struct TextTable: Sendable {
  var header: [TerminalLine]?
  var rows: [[TerminalLine]]

  package init(header: [TerminalLine]?, rows: [[TerminalLine]]) {
    self.header = header
    self.rows = rows
  }

  /// The table as lines no wider than `maxWidth` (the last cell ends in `…` when cut).
  /// Every cell is a `TerminalLine`, its tree text escaped where it was made,
  /// so a cell (a reason naming a file, a `requires:` entry) keeps to its line.
  package func lines(maxWidth: Int = 100) -> [TerminalLine] {
    let all = (header.map { [$0] } ?? []) + rows
    guard let columns = all.map(\.count).max(), columns > 0 else { return [] }
    var widths = [Int](repeating: 0, count: columns)
    for row in all {
      for (i, cell) in row.enumerated() where i < columns - 1 { widths[i] = max(widths[i], cell.text.count) }
    }
    return all.map { row in
      var line: TerminalLine = ""
      for (i, cell) in row.enumerated() {
        if i < row.count - 1 {
          line += cell + "\(String(repeating: " ", count: widths[i] - cell.text.count + 2))"
        } else {
          let room = max(8, maxWidth - 2 - line.text.count)
          line += cell.text.count > room ? cell.prefix(room - 1) + "…" : cell
        }
      }
      return line.droppingTrailingSpaces()
    }
  }
}

/// A table's cells are text escaped by `shown` (`.text`), and a part of that
/// holds nothing `shown` escapes: escaping it again keeps it as it is.
extension Escaped where Language == ControlText {
  /// The first `count` characters, for a cell cut to fit.
  fileprivate func prefix(_ count: Int) -> TerminalLine {
    TerminalLine(escaping: String(text.prefix(count)))
  }

  /// The line without the spaces that pad its end.
  fileprivate func droppingTrailingSpaces() -> TerminalLine {
    var kept = Substring(text)
    while kept.hasSuffix(" ") { kept.removeLast() }
    return TerminalLine(escaping: String(kept))
  }
}
