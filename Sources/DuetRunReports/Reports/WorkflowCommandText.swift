import DuetSupport

/// The one escaping of text in a GitHub Actions workflow command
/// (`::error title=…::message`): controls cleaned (`ControlText.clean`), then
/// `%`, CR and LF as `%25`, `%0D`, `%0A`, so a lane's text cannot end the
/// command line and start another; in a property value also `:` and `,`, so it
/// cannot end the property. What it writes is `WorkflowCommand`.
enum WorkflowCommandText: OutputLanguage {
  /// Where in a command a value goes.
  enum Context: Sendable {
    /// The message after `::`.
    case data
    /// A property's value (`title=…`).
    case property
  }

  static var defaultContext: Context { .data }

  static func escape(_ value: String, in context: Context) -> String {
    var out = ""
    for scalar in ControlText.clean(value).unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      case ":" where context == .property: out += "%3A"
      case "," where context == .property: out += "%2C"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
