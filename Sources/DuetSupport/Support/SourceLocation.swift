/// A 1-based position in a file, so every message can point at the byte a user must fix.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  package var file: String
  package var line: Int
  package var column: Int

  package init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, the prefix compilers and editors understand.
  package var description: String { "\(file):\(line):\(column)" }
}
