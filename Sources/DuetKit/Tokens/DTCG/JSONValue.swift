import Foundation

/// A JSON value as Foundation's parser reads it, with numbers and booleans
/// kept apart (a `fontWeight` of `true` is an error, not 1).
public indirect enum JSONValue: Sendable, Equatable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  /// Foundation does not keep key order; `JSONDocument` restores it.
  case object([String: JSONValue])

  /// Foundation's boolean class: `JSONSerialization` gives `true` as an
  /// `NSNumber`, and only its class tells it from 1.
  private static let booleanClass: AnyClass = type(of: NSNumber(value: true))

  /// A value from `JSONSerialization`'s tree; nil for a type it never returns.
  /// `NSNumber` is tried last: casting a dictionary to it bridges the whole
  /// dictionary first, which made the cast the slowest part of a read.
  init?(foundation value: Any) {
    switch value {
    case let text as String:
      self = .string(text)
    case let items as [Any]:
      var result: [JSONValue] = []
      result.reserveCapacity(items.count)
      for item in items {
        guard let converted = JSONValue(foundation: item) else { return nil }
        result.append(converted)
      }
      self = .array(result)
    case let members as [String: Any]:
      var result: [String: JSONValue] = [:]
      result.reserveCapacity(members.count)
      for (key, item) in members {
        guard let converted = JSONValue(foundation: item) else { return nil }
        result[key] = converted
      }
      self = .object(result)
    case is NSNull:
      self = .null
    case let number as NSNumber:
      self = type(of: number) == Self.booleanClass ? .bool(number.boolValue) : .number(number.doubleValue)
    default:
      return nil
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
