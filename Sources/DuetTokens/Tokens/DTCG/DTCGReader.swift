import Foundation
import DuetModel
import DuetSupport

/// What a DTCG file gives the generator: the same model a YAML config fills,
/// so the emitters cannot tell where their tokens came from.
struct DTCGTokens {
  var colorGroups: [TokenGroup<ColorToken>] = []
  var fontGroups: [TokenGroup<FontToken>] = []
  var spacing: [ScaleToken] = []
  var radius: [ScaleToken] = []
}

/// Reads DTCG tokens into the model. A top-level group is a section heading;
/// the names below it join into one lowerCamelCase token name
/// (`Labels.label.primary` -> `labelPrimary`). Top-level groups named
/// `spacing` and `radius` are the scales. Colours have a dark value from
/// `$extensions["dev.duet"].dark` or from a second file; `dimension`,
/// `number`, `fontWeight` and `fontFamily` tokens elsewhere are the parts
/// typography composites alias, and generate nothing of their own.
struct DTCGReader {
  static let types = ["color", "dimension", "number", "fontWeight", "fontFamily", "typography"]
  /// The format's other types, which neither platform's token files hold.
  static let otherTypes = ["duration", "cubicBezier", "shadow", "border", "transition", "gradient", "strokeStyle"]
  static let colorExtensions = ["dark", "note"]
  static let typographyExtensions = ["textStyle", "note", "opticalSize", "softness", "width"]
  static let typographyKeys = ["fontFamily", "fontSize", "fontWeight", "letterSpacing", "lineHeight"]

  var diagnostics = DiagnosticList()
  private var tokens: [DTCGToken] = []
  private var byPath: [String: DTCGToken] = [:]
  private var darkByPath: [String: DTCGToken] = [:]
  private var resolver = AliasResolver<JSONValue>([:])
  private var seenCycleStarts: Set<String> = []
  private var reportedCycles: Set<[String]> = []
  /// A swift target is declared, so every typography token needs a text style.
  private(set) var needsTextStyle: Bool
  private var hasDarkFile: Bool

  init(light: JSONDocument, dark: JSONDocument?, needsTextStyle: Bool) {
    self.needsTextStyle = needsTextStyle
    self.hasDarkFile = dark != nil
    tokens = DTCGTree.tokens(light, diagnostics: &diagnostics)
    for token in tokens { byPath[token.dotted] = token }
    if let dark {
      let darkTokens = DTCGTree.tokens(dark, diagnostics: &diagnostics)
      for token in darkTokens { darkByPath[token.dotted] = token }
      for token in darkTokens where byPath[token.dotted] == nil {
        diagnostics.add("\(token.dotted): in the dark file but not in the light one (\(light.file)); every token needs both", at: token.location)
      }
    }
    var entries: [String: AliasResolver<JSONValue>.Entry] = [:]
    for token in tokens {
      for appearance in Appearance.allCases {
        let value = rawValue(token, appearance)
        if case .string(let text) = value, let target = TokenAlias.target(of: text) {
          entries[Self.key(token.dotted, appearance)] = .alias(target: Self.key(target, appearance))
        } else {
          entries[Self.key(token.dotted, appearance)] = .value(value)
        }
      }
    }
    resolver = AliasResolver(entries)
  }

  static func key(_ path: String, _ appearance: Appearance) -> String { "\(path)@\(appearance.rawValue)" }

  /// A token's value as written for one appearance, before aliases are followed.
  private func rawValue(_ token: DTCGToken, _ appearance: Appearance) -> JSONValue {
    guard appearance == .dark else { return token.value }
    if let dark = token.duet["dark"] { return dark }
    if let other = darkByPath[token.dotted], resolvedType(of: token) == "color" { return other.value }
    return token.value
  }

  /// The token's own `$type` or its groups', else, for an alias, its target's.
  func resolvedType(of token: DTCGToken) -> String? {
    var current = token
    var seen: Set<String> = []
    while true {
      if let type = current.type { return type }
      guard case .string(let text) = current.value, let target = TokenAlias.target(of: text), let next = byPath[target],
        seen.insert(next.dotted).inserted
      else { return nil }
      current = next
    }
  }

  mutating func read() -> DTCGTokens {
    var result = DTCGTokens()
    var colorNames: [String: String] = [:]
    var fontNames: [String: String] = [:]
    for token in tokens {
      guard let type = checkedType(token) else { continue }
      if let scale = ScaleEmitter.Scale(rawValue: token.path[0]), token.path.count > 1 {
        guard let name = generatedName(token, below: 1) else { continue }
        if let step = scaleToken(token, type: type, name: name, scale: scale) {
          if scale == .spacing { result.spacing.append(step) } else { result.radius.append(step) }
        }
        continue
      }
      switch type {
      case "color":
        checkExtensions(token, allowed: Self.colorExtensions)
        if let name = name(token, below: token.path.count > 1 ? 1 : 0, taken: &colorNames), let color = colorToken(token, name: name) {
          Self.append(color, heading: heading(token), to: &result.colorGroups)
        }
      case "typography":
        checkExtensions(token, allowed: Self.typographyExtensions)
        if let name = name(token, below: token.path.count > 1 ? 1 : 0, taken: &fontNames), let font = fontToken(token, name: name) {
          Self.append(font, heading: heading(token), to: &result.fontGroups)
        }
      default:
        checkExtensions(token, allowed: ["note"])
        // A part for composites: checked here, so a bad one is named even when nothing aliases it.
        if case .success(let value) = resolved(token, .light) { _ = part(value, type: type, token: token, field: nil) }
      }
    }
    if hasDarkFile {
      for token in tokens where resolvedType(of: token) != "color" {
        if let other = darkByPath[token.dotted], other.value != token.value {
          diagnostics.add(
            "\(token.dotted): the dark file gives it another value; only colours may differ by appearance",
            at: other.location)
        }
      }
      for token in tokens where resolvedType(of: token) == "color" && darkByPath[token.dotted] == nil && token.duet["dark"] == nil {
        diagnostics.add("\(token.dotted): a colour in the light file with no dark value; add it to the dark file", at: token.location)
      }
    }
    return result
  }

  private func heading(_ token: DTCGToken) -> String? { token.path.count > 1 ? token.path[0] : nil }

  private static func append<Token>(_ token: Token, heading: String?, to groups: inout [TokenGroup<Token>]) {
    // Tokens come group by group: the last group is nearly always the one.
    if let last = groups.indices.last, groups[last].heading == heading {
      groups[last].tokens.append(token)
    } else if let index = groups.firstIndex(where: { $0.heading == heading }) {
      groups[index].tokens.append(token)
    } else {
      groups.append(TokenGroup(heading: heading, tokens: [token]))
    }
  }

  // MARK: Types and names

  private mutating func checkedType(_ token: DTCGToken) -> String? {
    guard let type = resolvedType(of: token) else {
      if case .string(let text) = token.value, let target = TokenAlias.target(of: text), byPath[target] == nil {
        brokenAlias(token, target: target)
      } else {
        diagnostics.add("\(token.dotted): no $type; give the token or a group above it one (\(Self.types.joined(separator: ", ")))", at: token.location)
      }
      return nil
    }
    if Self.types.contains(type) { return type }
    if Self.otherTypes.contains(type) {
      diagnostics.add(
        "\(token.dotted): duet does not generate \(type) tokens (it reads \(Self.types.joined(separator: ", "))); keep them in a file of their own",
        at: token.location)
    } else {
      diagnostics.add(
        "\(token.dotted): unknown $type '\(type)'\(Suggestion.hint(for: type, in: Self.types + Self.otherTypes)) (one of \(Self.types.joined(separator: ", ")))",
        at: token.location)
    }
    return nil
  }

  /// The path below the heading as one lowerCamelCase name: `label.primary` -> `labelPrimary`.
  static func joinedName(_ parts: ArraySlice<String>) -> String {
    joinedASCIIName(parts) ?? joinedWords(parts)
  }

  /// `joinedName` for any parts: split into words at `-`, `_` and spaces, then cased.
  static func joinedWords(_ parts: ArraySlice<String>) -> String {
    var words: [String] = []
    for part in parts {
      words += part.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " }).map(String.init)
    }
    return words.enumerated().map { index, word in
      index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
    }.joined()
  }

  /// `joinedName` for parts of ASCII letters and digits alone (nearly every
  /// name), straight into bytes: no word strings to split, case and join.
  /// Nil for anything else.
  static func joinedASCIIName(_ parts: ArraySlice<String>) -> String? {
    var bytes: [UInt8] = []
    for part in parts {
      var first = true
      for byte in part.utf8 {
        let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        guard isLetter || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else { return nil }
        if first && isLetter {
          bytes.append(bytes.isEmpty ? byte | 0x20 : byte & ~0x20)
        } else {
          bytes.append(byte)
        }
        first = false
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private mutating func name(_ token: DTCGToken, below depth: Int, taken: inout [String: String]) -> String? {
    guard let name = generatedName(token, below: depth) else { return nil }
    if let first = taken[name] {
      diagnostics.add("\(token.dotted): its name '\(name)' is also the name of \(first); rename one", at: token.location)
      return nil
    }
    taken[name] = token.dotted
    return name
  }

  private mutating func generatedName(_ token: DTCGToken, below depth: Int) -> String? {
    let name = Self.joinedName(token.path[depth...])
    if let problem = TokenNames.problem(with: name) {
      diagnostics.add("\(token.dotted): its generated name '\(name)' \(problem.replacingOccurrences(of: "'\(name)' is", with: "is"))", at: token.location)
      return nil
    }
    return name
  }

  private mutating func checkExtensions(_ token: DTCGToken, allowed: [String]) {
    for key in token.duet.keys.sorted() where !allowed.contains(key) {
      diagnostics.add(
        "\(token.dotted): unknown key '\(key)' in $extensions.\(DTCGTree.extensionKey)\(Suggestion.hint(for: key, in: allowed)) (allowed here: \(allowed.joined(separator: ", ")))",
        at: token.location)
    }
  }

  func note(_ token: DTCGToken) -> String?? {
    guard let value = token.duet["note"] else { return .some(nil) }
    guard case .string(let text) = value else { return nil }
    let trimmed = trimmedText(text)
    return .some(trimmed.isEmpty ? nil : trimmed)
  }

  // MARK: Aliases

  /// The value a token has in one appearance once its aliases are followed; a broken or circular chain is reported.
  private mutating func resolved(_ token: DTCGToken, _ appearance: Appearance) -> Result<JSONValue, AliasResolver<JSONValue>.Failure> {
    let result = resolver.resolve(Self.key(token.dotted, appearance))
    if case .failure(let failure) = result { report(failure, on: token) }
    return result
  }

  /// The value of `{target}` in one appearance, for an alias inside a composite.
  mutating func resolved(alias target: String, _ appearance: Appearance, in token: DTCGToken) -> JSONValue? {
    guard byPath[target] != nil else {
      brokenAlias(token, target: target)
      return nil
    }
    switch resolver.resolve(Self.key(target, appearance)) {
    case .success(let value): return value
    case .failure(let failure):
      report(failure, on: token)
      return nil
    }
  }

  private mutating func report(_ failure: AliasResolver<JSONValue>.Failure, on token: DTCGToken) {
    switch failure {
    case .broken(let chain, let missing):
      // Reported on the token whose own alias names nothing, once.
      guard chain.count <= 1 else { return }
      brokenAlias(token, target: String(missing.prefix { $0 != "@" }))
    case .circular(let chain):
      // One chain per cycle (AliasResolver): its first name is seen once.
      guard let start = chain.first, seenCycleStarts.insert(start).inserted else { return }
      let members = chain.map { String($0.prefix { $0 != "@" }) }
      guard reportedCycles.insert(Array(Set(members)).sorted()).inserted else { return }
      diagnostics.add("\(token.dotted): circular alias: \(members.map { "{\($0)}" }.joined(separator: " -> "))", at: token.location)
    }
  }

  private mutating func brokenAlias(_ token: DTCGToken, target: String) {
    let key = "broken:\(token.dotted)->\(target)"
    guard reportedCycles.insert([key]).inserted else { return }
    diagnostics.add(
      "\(token.dotted): the alias {\(target)} names no token\(Suggestion.hint(for: target, in: tokens.map(\.dotted)))",
      at: token.location)
  }

  // MARK: Values

  mutating func misfit(_ token: DTCGToken, field: String?, _ expected: DTCGValues.Expected, got value: JSONValue) {
    let place = field.map { "\(token.dotted): $value.\($0)" } ?? "\(token.dotted): $value"
    diagnostics.add("\(place) must be \(expected.form), got \(value.summary)", at: token.location)
  }

  private mutating func colorToken(_ token: DTCGToken, name: String) -> ColorToken? {
    guard case .success(let lightValue) = resolved(token, .light), case .success(let darkValue) = resolved(token, .dark) else { return nil }
    var light: ColorValue?
    var dark: ColorValue?
    switch DTCGValues.color(lightValue) {
    case .success(let value): light = value
    case .failure(let expected): misfit(token, field: nil, expected, got: lightValue)
    }
    switch DTCGValues.color(darkValue) {
    case .success(let value): dark = value
    case .failure(let expected):
      if darkValue != lightValue {
        diagnostics.add("\(token.dotted): its dark value must be \(expected.form), got \(darkValue.summary)", at: token.location)
      }
    }
    guard let note = note(token) else {
      diagnostics.add("\(token.dotted): $extensions.\(DTCGTree.extensionKey).note must be a string", at: token.location)
      return nil
    }
    guard let light, let dark else { return nil }
    let hasDark = token.duet["dark"] != nil || (darkByPath[token.dotted] != nil && dark != light)
    return ColorToken(name: name, doc: token.description, note: note, values: hasDark ? .lightDark(light: light, dark: dark) : .single(light))
  }

  private mutating func scaleToken(_ token: DTCGToken, type: String, name: String, scale: ScaleEmitter.Scale) -> ScaleToken? {
    guard case .success(let value) = resolved(token, .light) else { return nil }
    guard type == "dimension" || type == "number" else {
      diagnostics.add("\(token.dotted): a step of the \(scale.rawValue) scale must be a dimension, not \(type)", at: token.location)
      return nil
    }
    guard let points = part(value, type: type, token: token, field: nil), points >= 0 else {
      if case .success(let points) = DTCGValues.number(value), points < 0 {
        diagnostics.add("\(token.dotted): a step of the \(scale.rawValue) scale must be 0 or more", at: token.location)
      }
      return nil
    }
    return ScaleToken(name: name, doc: token.description, value: points)
  }

  /// A `dimension` (points), `number`, `fontWeight` or `fontFamily` value as a number (a family as 0),
  /// reporting a misfit; nil when it does not fit.
  @discardableResult
  mutating func part(_ value: JSONValue, type: String, token: DTCGToken, field: String?) -> Double? {
    switch type {
    case "dimension":
      switch DTCGValues.dimension(value) {
      case .success(.points(let points)): return points
      case .success(.em): return nil
      case .failure(let expected): misfit(token, field: field, expected, got: value)
      }
    case "number":
      switch DTCGValues.number(value) {
      case .success(let number): return number
      case .failure(let expected): misfit(token, field: field, expected, got: value)
      }
    case "fontWeight":
      switch DTCGValues.fontWeight(value) {
      case .success(let weight): return Double(weight)
      case .failure(let expected): misfit(token, field: field, expected, got: value)
      }
    case "fontFamily":
      switch DTCGValues.fontFamily(value) {
      case .success: return 0
      case .failure(let expected): misfit(token, field: field, expected, got: value)
      }
    default:
      break
    }
    return nil
  }

  /// A typography token, its `$value` object read by `DTCGFontTokenReader`.
  private mutating func fontToken(_ token: DTCGToken, name: String) -> FontToken? {
    guard case .success(let value) = resolved(token, .light) else { return nil }
    guard case .object(let members) = value else {
      misfit(token, field: nil, "a typography object {fontFamily, fontSize, fontWeight, letterSpacing, lineHeight}", got: value)
      return nil
    }
    var fields = DTCGFontTokenReader(token: token, members: members)
    return fields.read(name: name, &self)
  }
}
