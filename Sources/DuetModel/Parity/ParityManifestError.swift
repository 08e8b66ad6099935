import DuetSupport

/// Everything wrong with a parity manifest, every problem with its position.
public struct ParityManifestError: DiagnosticError {
  public var diagnostics: [Diagnostic]
  public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
