/// A 1-based position in a file, so every message can point at the byte a user must fix.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, the prefix compilers and editors understand.
  public var description: String { "\(file):\(line):\(column)" }
}
