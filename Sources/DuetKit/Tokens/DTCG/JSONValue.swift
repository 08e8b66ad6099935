import Foundation

/// A JSON value as Foundation's decoder reads it, with numbers and booleans
/// kept apart (a `fontWeight` of `true` is an error, not 1).
public indirect enum JSONValue: Sendable, Equatable, Decodable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  /// Foundation does not keep key order; `JSONDocument` restores it.
  case object([String: JSONValue])

  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// What the value is, in the words an error message uses.
  public var summary: String {
    switch self {
    case .string(let text): return "\"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
    case .number(let number): return plainNumber(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .array: return "a list"
    case .object: return "an object"
    }
  }

  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }
}
