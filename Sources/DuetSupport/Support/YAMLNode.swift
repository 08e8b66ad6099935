/// A YAML node as libyaml read it, with the 1-based position it started at, so
/// every later check can point at the exact line and column.
package struct YAMLNode: Sendable {
  /// Not `indirect`: the lists already hold their nodes out of line, and a box
  /// per node was one more allocation (and free) for every scalar of a file.
  package enum Kind: Sendable {
    /// `plain` is true for an unquoted scalar: only those can be null, numbers or booleans.
    case scalar(String, plain: Bool)
    case sequence([YAMLNode])
    case mapping([YAMLPair])
  }

  package var kind: Kind
  package var location: SourceLocation

  package init(_ kind: Kind, at location: SourceLocation) {
    self.kind = kind
    self.location = location
  }

  /// The text of a scalar; nil for a list or a mapping.
  package var scalar: String? {
    if case .scalar(let text, _) = kind { return text }
    return nil
  }

  /// The items of a list; nil otherwise.
  package var sequence: [YAMLNode]? {
    if case .sequence(let items) = kind { return items }
    return nil
  }

  /// The pairs of a mapping, in file order; nil otherwise.
  package var mapping: [YAMLPair]? {
    if case .mapping(let pairs) = kind { return pairs }
    return nil
  }

  /// An empty document, `~` or `null` written without quotes.
  package var isNull: Bool {
    if case .scalar(let text, plain: true) = kind {
      return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }
    return false
  }

  /// What the node is, in the words an error message uses ("a mapping", "a list", "\"abc\"").
  package var summary: String {
    switch kind {
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .scalar(let text, _):
      if isNull { return "nothing" }
      let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
      // Raw: the diagnostic that quotes it escapes its message once, so a
      // control character (a NUL, an escape, a line break) is shown, never sent.
      return "\"\(cut)\""
    }
  }

  /// The value under `key` in a mapping, if present.
  package subscript(key: String) -> YAMLNode? {
    mapping?.first(where: { $0.key.scalar == key })?.value
  }
}

/// One `key: value` entry of a mapping.
package struct YAMLPair: Sendable {
  package var key: YAMLNode
  package var value: YAMLNode
  package init(key: YAMLNode, value: YAMLNode) {
    self.key = key
    self.value = value
  }
}
