/// `"{name}"` written where a value goes: a reference to another token's
/// value, as DTCG writes aliases and as the YAML config accepts them too.
public enum TokenAlias {
  /// `"{group.token}"` -> `group.token`; nil for any other text.
  public static func target(of text: String) -> String? {
    guard text.count > 2, text.first == "{", text.last == "}" else { return nil }
    let inner = text.dropFirst().dropLast()
    guard !inner.isEmpty, !inner.contains("{"), !inner.contains("}"), !inner.contains(where: \.isWhitespace) else { return nil }
    return String(inner)
  }
}

/// Named values, some of them aliases of others, resolved with every chain
/// followed to its end: a chain that returns to a name it passed is circular,
/// and one that reaches a name nobody declared is broken. Each is reported
/// with the whole chain, so the fix is visible without opening the file twice.
struct AliasResolver<Value> {
  enum Entry {
    case value(Value)
    /// An alias of `target`; `adjust` is applied to what the target resolves to
    /// (a colour's own `alpha` over an aliased colour).
    case alias(target: String, adjust: ((Value) -> Value)? = nil)
  }

  enum Failure: Error {
    /// The chain from the name asked for to the alias that names nothing.
    case broken(chain: [String], missing: String)
    /// The chain from the name asked for round to the first name repeated.
    case circular(chain: [String])
  }

  private var entries: [String: Entry]
  private var resolved: [String: Value] = [:]

  init(_ entries: [String: Entry]) { self.entries = entries }

  var names: [String] { Array(entries.keys) }

  mutating func resolve(_ name: String) -> Result<Value, Failure> {
    var chain: [String] = []
    return resolve(name, chain: &chain)
  }

  private mutating func resolve(_ name: String, chain: inout [String]) -> Result<Value, Failure> {
    if let done = resolved[name] { return .success(done) }
    if chain.contains(name) { return .failure(.circular(chain: chain + [name])) }
    guard let entry = entries[name] else {
      return .failure(.broken(chain: chain, missing: name))
    }
    chain.append(name)
    switch entry {
    case .value(let value):
      resolved[name] = value
      return .success(value)
    case .alias(let target, let adjust):
      switch resolve(target, chain: &chain) {
      case .success(let value):
        let result = adjust.map { $0(value) } ?? value
        resolved[name] = result
        return .success(result)
      case .failure(let failure):
        return .failure(failure)
      }
    }
  }
}
