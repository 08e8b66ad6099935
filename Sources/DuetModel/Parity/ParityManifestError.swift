import DuetSupport

/// Everything wrong with a parity manifest, every problem with its position.
package struct ParityManifestError: DiagnosticError {
  package var diagnostics: [Diagnostic]
  init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
