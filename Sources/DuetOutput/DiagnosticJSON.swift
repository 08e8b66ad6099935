import DuetSupport

/// A diagnostic in a report's `errors[]`: its message and, when it has one, its
/// place (`file`, `line`, `column`; left out, not null, when it has none).
public struct DiagnosticJSON: Codable, Sendable, Equatable {
  public var message: String
  public var file: String?
  public var line: Int?
  public var column: Int?

  public init(_ diagnostic: Diagnostic) {
    message = diagnostic.message
    file = diagnostic.location?.file
    line = diagnostic.location?.line
    column = diagnostic.location?.column
  }
}
