import Foundation
import DuetModel
import DuetSupport

/// A JSON value as `JSONReader` reads it, with numbers and booleans kept
/// apart (a `fontWeight` of `true` is an error, not 1).
/// Not `indirect`: arrays and dictionaries already hold their values out of
/// line, and a box per value was one more allocation for every string and number.
enum JSONValue: Sendable, Equatable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  /// A dictionary does not keep key order; `JSONDocument` does.
  case object([String: JSONValue])

  /// What the value is, in the words an error message uses.
  var summary: String {
    switch self {
    case .string(let text): return "\"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
    case .number(let number): return plainNumber(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .array: return "a list"
    case .object: return "an object"
    }
  }

  subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }
}
