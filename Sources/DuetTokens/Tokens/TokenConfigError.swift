import DuetModel
import DuetSupport

/// Everything wrong with a token config, each with its `file:line:column`; the
/// command writes nothing and exits 2 when it is thrown.
package struct TokenConfigError: DiagnosticError, Equatable {
  package var diagnostics: [Diagnostic]
  init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
