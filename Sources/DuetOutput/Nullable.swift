/// An optional report field encoded as `null` when it has no value, rather than
/// left out as Swift's synthesized `Codable` does: duet's reports have always
/// printed every key, and scripts read `.exitCode == null`.
@propertyWrapper
package struct Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
  package var wrappedValue: Value?

  package init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  package init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }

  package func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}
