import DuetSupport
/// A JSON value that keeps its keys in the order written, rendered the same way
/// on every platform (two-space indentation, `"key": value`), so a generated
/// file such as the manifest schema can be checked byte for byte for staleness.
/// Foundation's pretty printer differs between Darwin and Linux; this does not.
package indirect enum OrderedJSON: Sendable, Equatable {
  case string(String)
  case integer(Int)
  case bool(Bool)
  case null
  case array([OrderedJSON])
  case object([(String, OrderedJSON)])

  package static func == (a: OrderedJSON, b: OrderedJSON) -> Bool { a.text == b.text }

  /// The value as pretty-printed JSON, without a trailing newline.
  package var text: String {
    var out = ""
    write(to: &out, indent: "")
    return out
  }

  private func write(to out: inout String, indent: String) {
    switch self {
    case .string(let text): out += Self.quoted(text)
    case .integer(let number): out += String(number)
    case .bool(let flag): out += flag ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      // Short lists of scalars stay on one line, as a person would write them.
      if items.allSatisfy(\.isScalar) {
        out += "[" + items.map(\.text).joined(separator: ", ") + "]"
        return
      }
      out += "[\n"
      for (index, item) in items.enumerated() {
        out += indent + "  "
        item.write(to: &out, indent: indent + "  ")
        out += index == items.count - 1 ? "\n" : ",\n"
      }
      out += indent + "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{\n"
      for (index, (key, value)) in members.enumerated() {
        out += indent + "  " + Self.quoted(key) + ": "
        value.write(to: &out, indent: indent + "  ")
        out += index == members.count - 1 ? "\n" : ",\n"
      }
      out += indent + "}"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: return false
    default: return true
    }
  }

  /// A JSON string literal: quotes, backslashes and control characters escaped.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        // Controls, and what a terminal acts on (ReportJSON.escapingSeparators).
        if scalar.value < 0x20 || ControlText.needsEscape(scalar) {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
