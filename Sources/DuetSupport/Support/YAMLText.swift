import Foundation

/// YAML scalars duet writes (init's manifest, the GitHub workflow): plain when
/// that reads back as the same string, double-quoted otherwise, so no value a
/// user typed turns into a boolean, a number or a comment on the way out.
package enum YAMLText {
  package static func scalar(_ text: String) -> String {
    let plainSafe = !text.isEmpty
      && text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }
      && !"-?:,[]{}#&*!|>'\"%@` ".unicodeScalars.contains(text.unicodeScalars.first!)
      && !text.contains(": ") && !text.contains(" #") && !text.hasSuffix(":") && !text.hasSuffix(" ")
      && !text.contains(where: { "[]{},".contains($0) })
      && !["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"].contains(text.lowercased())
      && Double(text) == nil
    if plainSafe { return text }
    var quoted = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      case "\t": quoted += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          quoted += String(format: "\\x%02x", scalar.value)
        } else {
          quoted.unicodeScalars.append(scalar)
        }
      }
    }
    return quoted + "\""
  }

  /// A flow list: `[a, b]`.
  package static func list(_ items: [String]) -> String {
    "[" + items.map(scalar).joined(separator: ", ") + "]"
  }
}
