import DuetModel
import DuetSupport

/// `"{name}"` written where a value goes: a reference to another token's
/// value, as DTCG writes aliases and as the YAML config accepts them too.
enum TokenAlias {
  /// `"{group.token}"` -> `group.token`; nil for any other text.
  static func target(of text: String) -> String? {
    // Most values are not aliases: their bytes say so before characters are counted.
    guard text.utf8.first == UInt8(ascii: "{"), text.utf8.last == UInt8(ascii: "}") else { return nil }
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
  /// Every name settled so far, with its value or its failure: each name is
  /// followed once, so resolving all of them is linear in their number.
  private var settled: [String: Result<Value, Failure>] = [:]

  init(_ entries: [String: Entry]) { self.entries = entries }

  var names: [String] { Array(entries.keys) }

  /// Follows `name`'s chain without recursion (a chain may be as long as the file).
  /// A name on a circular chain, or leading into one, fails with that cycle,
  /// written from the member first reached round to it again; every name of
  /// a cycle gets the same array, so a caller can report each cycle once.
  /// A broken chain has `chain == [name]` only on the name whose own alias
  /// names nothing (the one to report), two names elsewhere.
  mutating func resolve(_ name: String) -> Result<Value, Failure> {
    if let done = settled[name] { return done }
    // A plain value (most names) has no chain to follow or settle.
    if case .value(let value)? = entries[name] { return .success(value) }
    var chain: [String] = []
    var position: [String: Int] = [:]
    var current = name
    var end: Result<Value, Failure>
    while true {
      if let done = settled[current] {
        end = done
        break
      }
      if let start = position[current] {
        end = .failure(.circular(chain: Array(chain[start...]) + [current]))
        break
      }
      guard let entry = entries[current] else {
        if chain.isEmpty { return .failure(.broken(chain: [], missing: current)) }
        end = .failure(.broken(chain: [], missing: current))
        break
      }
      position[current] = chain.count
      chain.append(current)
      if case .value(let value) = entry {
        end = .success(value)
        settled[current] = end
        chain.removeLast()
        break
      }
      if case .alias(let target, _) = entry { current = target }
    }
    // Settle the chain from its end back to `name`.
    var result = end
    for index in chain.indices.reversed() {
      let link = chain[index]
      switch end {
      case .success:
        if case .success(let value) = result, case .alias(_, let adjust)? = entries[link] {
          result = .success(adjust.map { $0(value) } ?? value)
        }
      case .failure(.broken(let brokenChain, let missing)):
        let direct = brokenChain.isEmpty && index == chain.count - 1
        result = .failure(.broken(chain: direct ? [link] : [link, chain.count > index + 1 ? chain[index + 1] : missing], missing: missing))
      case .failure(.circular):
        result = end
      }
      settled[link] = result
    }
    return result
  }
}
