/// Typed reading of one YAML mapping against the keys allowed where it stands.
///
/// Every problem is added to a shared `DiagnosticList` instead of thrown, so a
/// loader reports all of a file's errors at once. `context` names the thing the
/// mapping describes (`lane 'kotlin'`) and starts every message about it.
package struct YAMLFields {
  package let node: YAMLNode
  package let context: String
  /// The allowed pairs in file order. A mapping has a handful of keys, so a
  /// scan beats hashing each key into two dictionaries per token.
  private var pairs: [YAMLPair] = []

  /// Nil (with a diagnostic) when `node` is not a mapping. Unknown keys are
  /// reported with the nearest allowed key as a suggestion.
  package init?(_ node: YAMLNode, context: String, allowed: [String], diagnostics: inout DiagnosticList) {
    guard let pairs = node.mapping else {
      diagnostics.add("\(context) must be a mapping, got \(node.summary)", at: node.location)
      return nil
    }
    self.node = node
    self.context = context
    // Usually every key is allowed: then the node's own pairs serve, uncopied.
    if pairs.allSatisfy({ pair in pair.key.scalar.map { allowed.contains($0) } ?? false }) {
      self.pairs = pairs
      return
    }
    for pair in pairs {
      guard let key = pair.key.scalar else { continue }
      if !allowed.contains(key) {
        let known = allowed.map { "'\($0)'" }.joined(separator: ", ")
        diagnostics.add("\(context): unknown key '\(key)'\(Suggestion.hint(for: key, in: allowed)) (allowed: \(known))", at: pair.key.location)
        continue
      }
      self.pairs.append(pair)
    }
  }

  /// The last pair under `key` (the parser refuses a key written twice).
  private func pair(_ key: String) -> YAMLPair? {
    pairs.last { $0.key.scalar == key }
  }

  package func has(_ key: String) -> Bool { pair(key) != nil }
  package func value(_ key: String) -> YAMLNode? { pair(key)?.value }
  package func keyLocation(_ key: String) -> SourceLocation? { pair(key)?.key.location }

  /// A string scalar; numbers and booleans written plainly are taken as their text.
  package func string(_ key: String, required: Bool = false, diagnostics: inout DiagnosticList) -> String? {
    guard let value = value(key) else {
      if required { diagnostics.add("\(context): missing '\(key)'", at: node.location) }
      return nil
    }
    guard let text = value.scalar, !value.isNull else {
      diagnostics.add("\(context): '\(key)' must be a string, got \(value.summary)", at: value.location)
      return nil
    }
    if required && text.allSatisfy(\.isWhitespace) {
      diagnostics.add("\(context): '\(key)' must not be empty", at: value.location)
      return nil
    }
    return text
  }

  /// A non-negative integer.
  package func count(_ key: String, diagnostics: inout DiagnosticList) -> Int? {
    guard let value = value(key) else { return nil }
    guard let text = value.scalar, case .scalar(_, plain: true) = value.kind, let number = Int(text), number >= 0 else {
      diagnostics.add("\(context): '\(key)' must be a whole number, 0 or more, got \(value.summary)", at: value.location)
      return nil
    }
    return number
  }

  /// A list of strings; one string alone is accepted as a list of one, but not
  /// a bare number or boolean (`modules: 5`, `requires: yes`), which is more
  /// likely a slip than a path or a program named `5`.
  package func strings(_ key: String, diagnostics: inout DiagnosticList) -> [Located<String>]? {
    guard let value = value(key) else { return nil }
    if let text = value.scalar, !value.isNull {
      if case .scalar(_, plain: true) = value.kind, YAMLFields.looksTyped(text) {
        diagnostics.add("\(context): '\(key)' must be a list of strings, got \(text) (a YAML \(Double(text) != nil ? "number" : "boolean"); quote it or write a list)", at: value.location)
        return nil
      }
      return [Located(text, at: value.location)]
    }
    guard let items = value.sequence else {
      diagnostics.add("\(context): '\(key)' must be a list of strings, got \(value.summary)", at: value.location)
      return nil
    }
    var result: [Located<String>] = []
    for item in items {
      if let text = item.scalar, !item.isNull {
        result.append(Located(text, at: item.location))
      } else {
        diagnostics.add("\(context): every item of '\(key)' must be a string, got \(item.summary)", at: item.location)
      }
    }
    return result
  }

  /// Whether a plain scalar reads as a number or a boolean in YAML (1.1 or 1.2).
  static func looksTyped(_ text: String) -> Bool {
    if Double(text) != nil || Int(text) != nil { return true }
    return ["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
            "on", "On", "ON", "off", "Off", "OFF"].contains(text)
  }

  /// A mapping of string to string (`env:`), in file order.
  package func stringMap(_ key: String, diagnostics: inout DiagnosticList) -> [(String, String)]? {
    guard let value = value(key) else { return nil }
    guard let pairs = value.mapping else {
      diagnostics.add("\(context): '\(key)' must be a mapping of names to strings, got \(value.summary)", at: value.location)
      return nil
    }
    var result: [(String, String)] = []
    for pair in pairs {
      guard let name = pair.key.scalar else { continue }
      guard let text = pair.value.scalar, pair.value.mapping == nil else {
        diagnostics.add("\(context): '\(key).\(name)' must be a string, got \(pair.value.summary)", at: pair.value.location)
        continue
      }
      result.append((name, text))
    }
    return result
  }
}

/// A value with the place in a file it came from.
package struct Located<Value: Sendable>: Sendable {
  package var value: Value
  package var location: SourceLocation
  package init(_ value: Value, at location: SourceLocation) {
    self.value = value
    self.location = location
  }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
