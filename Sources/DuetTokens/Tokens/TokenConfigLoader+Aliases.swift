import DuetModel
import DuetSupport

/// Colour aliases in the YAML config: `light: "{labelPrimary}"` reads the
/// light value of `labelPrimary`, `value: "{labelPrimary}"` both of its values.
/// A colour's own `alpha` (or `lightAlpha`, `darkAlpha`) applies over the
/// aliased colour; without one the aliased alpha is kept.
struct PendingColorAlias {
  var token: String
  var appearance: Appearance
  /// `light`, `dark` or `value`, as the message names it.
  var key: String
  var target: String
  var context: String
  var location: SourceLocation
}

extension TokenConfigLoader.Reader {
  /// Replaces every aliased value in `groups` with the value its chain ends
  /// at, reporting a broken or circular chain once, with the whole chain.
  mutating func resolveColorAliases(_ groups: inout [TokenGroup<ColorToken>]) {
    guard !colorAliases.isEmpty else { return }
    let tokens = groups.flatMap(\.tokens)
    let resolved = resolveEachColorAlias(colorAliasEntries(tokens), names: tokens.map(\.name))
    let written = Set(colorAliases.map(\.token))
    for groupIndex in groups.indices {
      for tokenIndex in groups[groupIndex].tokens.indices {
        let token = groups[groupIndex].tokens[tokenIndex]
        guard written.contains(token.name) else { continue }
        let light = resolved[Self.colorAliasKey(token.name, .light)] ?? token.value(.light)
        let dark = resolved[Self.colorAliasKey(token.name, .dark)] ?? token.value(.dark)
        switch token.values {
        case .single where light == dark:
          groups[groupIndex].tokens[tokenIndex].values = .single(light)
        default:
          groups[groupIndex].tokens[tokenIndex].values = .lightDark(light: light, dark: dark)
        }
      }
    }
  }

  /// The resolver's key for one appearance of a token: `labelPrimary@light`.
  private static func colorAliasKey(_ token: String, _ appearance: Appearance) -> String { "\(token)@\(appearance.rawValue)" }

  /// Every token's written value in each appearance, and every alias in
  /// place of the value it replaces, carrying the token's own alpha over
  /// the aliased colour when it has one.
  private func colorAliasEntries(_ tokens: [ColorToken]) -> [String: AliasResolver<ColorValue>.Entry] {
    var entries: [String: AliasResolver<ColorValue>.Entry] = [:]
    for token in tokens {
      for appearance in Appearance.allCases { entries[Self.colorAliasKey(token.name, appearance)] = .value(token.value(appearance)) }
    }
    var tokenByName: [String: ColorToken] = [:]
    for token in tokens where tokenByName[token.name] == nil { tokenByName[token.name] = token }
    for alias in colorAliases {
      let ownAlpha = tokenByName[alias.token]?.value(alias.appearance).alpha
      let adjust: ((ColorValue) -> ColorValue)? = ownAlpha.map { alpha in { ColorValue($0.rgb, alpha: alpha) } }
      entries[Self.colorAliasKey(alias.token, alias.appearance)] = .alias(
        target: Self.colorAliasKey(alias.target, alias.appearance), adjust: adjust)
    }
    return entries
  }

  /// The value each alias's chain ends at, by key; a chain that is broken
  /// (reported on the token whose own alias names nothing) or circular
  /// (reported once per cycle) has none.
  private mutating func resolveEachColorAlias(
    _ entries: [String: AliasResolver<ColorValue>.Entry], names: [String]
  ) -> [String: ColorValue] {
    var resolver = AliasResolver(entries)
    var reportedCycles: Set<[String]> = []
    // Every name of a cycle fails with the same chain, so its first name is
    // enough to skip a cycle already seen without sorting it again.
    var seenCycleStarts: Set<String> = []
    var resolved: [String: ColorValue] = [:]
    for alias in colorAliases {
      let name = Self.colorAliasKey(alias.token, alias.appearance)
      switch resolver.resolve(name) {
      case .success(let value):
        resolved[name] = value
      case .failure(.broken(let chain, let missing)):
        guard chain.count == 1 else { continue }  // reported on the token whose alias is broken
        let target = String(missing.prefix { $0 != "@" })
        diagnostics.add(
          "\(alias.context): '\(alias.key)' is an alias of {\(target)}, which names no colour token\(Suggestion.hint(for: target, in: names))",
          at: alias.location)
      case .failure(.circular(let chain)):
        guard let start = chain.first, seenCycleStarts.insert(start).inserted else { continue }
        let members = chain.map { String($0.prefix { $0 != "@" }) }
        let cycle = Array(Set(members)).sorted()
        guard reportedCycles.insert(cycle).inserted else { continue }
        diagnostics.add(
          "\(alias.context): circular alias: \(members.joined(separator: " -> ")) (in the \(alias.appearance.rawValue) appearance)",
          at: alias.location)
      }
    }
    return resolved
  }
}
