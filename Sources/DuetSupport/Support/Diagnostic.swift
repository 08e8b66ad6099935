/// One problem found in a file duet reads, in the compiler's `file:line:col: error: message` shape.
/// `message` is the text as found (a value quoted raw); `line` escapes it.
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  package var location: SourceLocation?
  package var message: String

  package init(_ message: String, at location: SourceLocation? = nil) {
    self.message = message
    self.location = location
  }

  /// One line, whatever the message quotes: a manifest value, a path or a
  /// group heading holding `\n::error…` is escaped as the terminal line is
  /// made, once, so a diagnostic cannot start a workflow command of its own
  /// in a CI log, where `duet verify` prints it before any lane runs.
  var line: TerminalLine {
    if let location { return "\(location): error: \(message)" }
    return "error: \(message)"
  }

  package var description: String { line.text }
}

/// An error that carries every diagnostic found, not just the first, so one run
/// shows a user everything to fix.
package protocol DiagnosticError: Error, CustomStringConvertible, Sendable {
  var diagnostics: [Diagnostic] { get }
}

extension DiagnosticError {
  package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Collects diagnostics while a file is checked, so validation continues past the first error.
package struct DiagnosticList: Sendable {
  package private(set) var items: [Diagnostic] = []
  package init() {}
  package var isEmpty: Bool { items.isEmpty }
  package mutating func add(_ message: String, at location: SourceLocation?) {
    items.append(Diagnostic(message, at: location))
  }
  package mutating func add(contentsOf other: [Diagnostic]) { items.append(contentsOf: other) }
}
