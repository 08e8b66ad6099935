import DuetSupport

/// A diagnostic in a report's `errors[]`: its message and, when it has one, its
/// place (`file`, `line`, `column`; left out, not null, when it has none).
package struct DiagnosticJSON: Codable, Sendable, Equatable {
  var message: String
  var file: String?
  var line: Int?
  var column: Int?

  package init(_ diagnostic: Diagnostic) {
    message = diagnostic.message
    file = diagnostic.location?.file
    line = diagnostic.location?.line
    column = diagnostic.location?.column
  }
}
