/// One problem found in a file duet reads, in the compiler's `file:line:col: error: message` shape.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  public var location: SourceLocation?
  public var message: String

  public init(_ message: String, at location: SourceLocation? = nil) {
    self.message = message
    self.location = location
  }

  public var description: String {
    if let location { return "\(location): error: \(message)" }
    return "error: \(message)"
  }
}

/// An error that carries every diagnostic found, not just the first, so one run
/// shows a user everything to fix.
public protocol DiagnosticError: Error, CustomStringConvertible, Sendable {
  var diagnostics: [Diagnostic] { get }
}

extension DiagnosticError {
  public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Collects diagnostics while a file is checked, so validation continues past the first error.
public struct DiagnosticList: Sendable {
  public private(set) var items: [Diagnostic] = []
  public init() {}
  public var isEmpty: Bool { items.isEmpty }
  public mutating func add(_ message: String, at location: SourceLocation?) {
    items.append(Diagnostic(message, at: location))
  }
  public mutating func add(contentsOf other: [Diagnostic]) { items.append(contentsOf: other) }
}
