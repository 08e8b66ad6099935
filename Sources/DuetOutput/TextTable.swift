import DuetSupport

/// Columns padded to their widest cell; the last column is cut to fit the terminal.
package struct TextTable: Sendable {
  package var header: [String]?
  package var rows: [[String]]

  package init(header: [String]?, rows: [[String]]) {
    self.header = header
    self.rows = rows
  }

  /// The table as lines no wider than `maxWidth` (the last cell ends in `…` when cut).
  /// Every cell is shown on one line, its controls escaped (`ControlText.shown`):
  /// a cell holds tree text (a reason naming a file, a `requires:` entry).
  package func lines(maxWidth: Int = 100) -> [String] {
    let all = ((header.map { [$0] } ?? []) + rows).map { $0.map(ControlText.shown) }
    guard let columns = all.map(\.count).max(), columns > 0 else { return [] }
    var widths = [Int](repeating: 0, count: columns)
    for row in all {
      for (i, cell) in row.enumerated() where i < columns - 1 { widths[i] = max(widths[i], cell.count) }
    }
    return all.map { row in
      var line = ""
      for (i, cell) in row.enumerated() {
        if i < row.count - 1 {
          line += cell + String(repeating: " ", count: widths[i] - cell.count + 2)
        } else {
          let room = max(8, maxWidth - 2 - line.count)
          line += cell.count > room ? String(cell.prefix(room - 1)) + "…" : cell
        }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }
}
