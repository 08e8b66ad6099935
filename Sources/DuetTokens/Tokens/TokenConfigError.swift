import DuetModel
import DuetSupport

/// Everything wrong with a token config, each with its `file:line:column`; the
/// command writes nothing and exits 2 when it is thrown.
public struct TokenConfigError: DiagnosticError, Equatable {
  public var diagnostics: [Diagnostic]
  public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
