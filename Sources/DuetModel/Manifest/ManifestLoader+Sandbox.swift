import DuetSupport

/// `sandbox:` and `network:` (issue 56): whether a lane runs in the sandbox
/// that shows only what it declared, and whether it reaches the network there.
extension ManifestLoader {
  static func readSandboxFields(_ fields: YAMLFields, into lane: inout Lane, label: String, diagnostics: inout DiagnosticList) {
    lane.sandbox = flag(fields, "sandbox", label: label, diagnostics: &diagnostics)
    lane.network = flag(fields, "network", label: label, diagnostics: &diagnostics) ?? false
  }

  /// A `true` or `false` under `key`; nil when absent (or wrong, with a diagnostic).
  static func flag(_ fields: YAMLFields, _ key: String, label: String, diagnostics: inout DiagnosticList) -> Bool? {
    guard let value = fields.value(key) else { return nil }
    switch value.isNull ? nil : value.scalar {
    case "true"?: return true
    case "false"?: return false
    default:
      diagnostics.add("\(label): '\(key)' must be true or false, got \(value.summary)", at: value.location)
      return nil
    }
  }
}
