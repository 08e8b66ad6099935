import DuetModel
import DuetSupport

/// The `contrast:` and `themes:` sections of the token config, checked against
/// the colour and type tokens declared above them. Like the rest of the loader,
/// every problem is collected with its place and the token or theme it names.
extension TokenConfigLoader {
  static let contrastKeys = ["labels", "surfaces", "backdrop", "pairs"]
  static let pairKeys = ["label", "surface", "font"]
  static let themeKeys = ["name", "level", "map"]
  /// In `theme-test.yaml` a theme may also opt into generating its mapping.
  static let themeFileThemeKeys = ["name", "level", "map", "output"]
}

extension TokenConfigLoader.Reader {
  // MARK: contrast

  mutating func contrast(
    _ node: YAMLNode?, config: TokenConfig, colorNames: [String: SourceLocation], fontNames: [String: SourceLocation]
  ) -> ContrastSpec? {
    guard let node, !node.isNull else { return nil }
    let context = "contrast"
    guard let fields = YAMLFields(node, context: context, allowed: TokenConfigLoader.contrastKeys, diagnostics: &diagnostics) else {
      return nil
    }
    let known = Array(colorNames.keys).sorted()
    let labels = tokenList(fields, "labels", context: context, what: "the colour tokens used as text", known: known)
    let surfaces = tokenList(fields, "surfaces", context: context, what: "the colour tokens text sits on", known: known)

    var backdrop: String?
    if let value = fields.value("backdrop") {
      if let name = colorReference(value, what: "'backdrop'", context: context, known: known) {
        backdrop = name
        if let token = config.colors.first(where: { $0.name == name }),
          let appearance = Appearance.allCases.first(where: { token.value($0).alpha.map { $0 < 1 } ?? false })
        {
          diagnostics.add(
            "\(context): the backdrop '\(name)' is translucent in the \(appearance.rawValue) appearance; it must be opaque, as it is what lies beneath every translucent surface",
            at: value.location)
          backdrop = nil
        }
      }
    } else if let first = surfaces?.first {
      backdrop = first
    }

    var pairs: [ContrastPair] = []
    if let value = fields.value("pairs"), !value.isNull {
      if let items = value.sequence {
        for (index, item) in items.enumerated() {
          if let pair = pair(item, context: "contrast pair \(index + 1)", known: known, fontNames: fontNames) { pairs.append(pair) }
        }
      } else {
        diagnostics.add("\(context): 'pairs' must be a list of {label, surface, font} mappings, got \(value.summary)", at: value.location)
      }
    }
    guard let labels, let surfaces, let backdrop else { return nil }
    return ContrastSpec(labels: labels, surfaces: surfaces, backdrop: backdrop, pairs: pairs)
  }

  /// `labels:` or `surfaces:`: a non-empty list of colour token names, none twice.
  mutating func tokenList(_ fields: YAMLFields, _ key: String, context: String, what: String, known: [String]) -> [String]? {
    guard let value = fields.value(key) else {
      diagnostics.add("\(context): missing '\(key)' (a list of \(what))", at: fields.node.location)
      return nil
    }
    guard let items = value.sequence, !items.isEmpty else {
      diagnostics.add("\(context): '\(key)' must be a list of \(what), got \(value.summary)", at: value.location)
      return nil
    }
    var result: [String] = []
    var valid = true
    for item in items {
      guard let name = colorReference(item, what: "'\(key)'", context: context, known: known) else {
        valid = false
        continue
      }
      if result.contains(name) {
        diagnostics.add("\(context): '\(key)' lists colour token '\(name)' twice", at: item.location)
        valid = false
        continue
      }
      result.append(name)
    }
    return valid ? result : nil
  }

  /// A scalar naming a declared colour token.
  mutating func colorReference(_ node: YAMLNode, what: String, context: String, known: [String]) -> String? {
    guard let name = node.scalar, !node.isNull else {
      diagnostics.add("\(context): \(what) must name a colour token, got \(node.summary)", at: node.location)
      return nil
    }
    guard known.contains(name) else {
      diagnostics.add("\(context): \(what) names '\(name)', which is not a colour token\(Suggestion.hint(for: name, in: known))", at: node.location)
      return nil
    }
    return name
  }

  mutating func pair(_ node: YAMLNode, context: String, known: [String], fontNames: [String: SourceLocation]) -> ContrastPair? {
    guard let fields = YAMLFields(node, context: context, allowed: TokenConfigLoader.pairKeys, diagnostics: &diagnostics) else { return nil }
    var label: String?
    var surface: String?
    for key in ["label", "surface"] {
      guard let value = fields.value(key) else {
        diagnostics.add("\(context): missing '\(key)' (a colour token)", at: node.location)
        continue
      }
      let name = colorReference(value, what: "'\(key)'", context: context, known: known)
      if key == "label" { label = name } else { surface = name }
    }
    var font: String?
    var fontValid = true
    if let value = fields.value("font") {
      let fonts = Array(fontNames.keys).sorted()
      if let name = value.scalar, !value.isNull, fontNames[name] != nil {
        font = name
      } else {
        fontValid = false
        let hint = value.scalar.map { Suggestion.hint(for: $0, in: fonts) } ?? ""
        diagnostics.add("\(context): 'font' must name a type token, got \(value.summary)\(hint)", at: value.location)
      }
    }
    guard let label, let surface, fontValid else { return nil }
    return ContrastPair(label: label, surface: surface, font: font)
  }

  // MARK: themes

  /// `inFile`: the themes come from `theme-test.yaml`, where a mapping is
  /// generated only when the theme says `output: true`.
  mutating func themes(_ node: YAMLNode?, config: TokenConfig, colorNames: [String: SourceLocation], inFile: Bool = false) -> [ThemeSpec] {
    guard let node, !node.isNull else { return [] }
    guard let items = node.sequence else {
      diagnostics.add("the token config: 'themes' must be a list of themes ('- name: main' with 'level:' and, for a second theme, 'map:'), got \(node.summary)", at: node.location)
      return []
    }
    var names: [String: SourceLocation] = [:]
    var result: [ThemeSpec] = []
    for (index, item) in items.enumerated() {
      if let theme = theme(item, fallback: "theme \(index + 1)", config: config, colorNames: colorNames, names: &names, inFile: inFile) {
        result.append(theme)
      }
    }
    return result
  }

  mutating func theme(
    _ node: YAMLNode, fallback: String, config: TokenConfig, colorNames: [String: SourceLocation],
    names: inout [String: SourceLocation], inFile: Bool = false
  ) -> ThemeSpec? {
    let allowed = inFile ? TokenConfigLoader.themeFileThemeKeys : TokenConfigLoader.themeKeys
    guard let fields = YAMLFields(node, context: tokenContext(node, kind: "theme", fallback: fallback), allowed: allowed, diagnostics: &diagnostics) else { return nil }
    let (name, context) = self.name(fields, kind: "theme", vocabulary: "themes", names: &names)

    var level: ContrastLevel? = .aa
    if let value = fields.value("level") {
      if let text = value.scalar, let parsed = ContrastLevel(rawValue: text) {
        level = parsed
      } else {
        level = nil
        diagnostics.add("\(context): 'level' must be AA or AAA, got \(value.summary)", at: value.location)
      }
    }

    var map: [ThemeMapEntry]?
    var mapValid = true
    if let value = fields.value("map") {
      map = self.map(value, context: context, config: config, colorNames: colorNames)
      mapValid = map != nil
      if let map, let name, let kotlin = config.kotlin, ThemeSpec(name: name, level: .aa, map: map).typeStem + "Source" == kotlin.palette {
        diagnostics.add("\(context): its generated file \(kotlin.palette).kt would replace the palette's; rename the theme or the palette", at: fields.keyLocation("name"))
        mapValid = false
      }
    }
    // In the config a mapped theme is always generated; in theme-test.yaml only with `output: true`,
    // so a hand-written mapping is checked, never duplicated.
    var generated = !inFile
    var outputValid = true
    if let value = fields.value("output") {
      switch value.scalar {
      case "true" where !value.isNull: generated = true
      case "false" where !value.isNull: generated = false
      default:
        outputValid = false
        diagnostics.add("\(context): 'output' must be true (generate this theme's mapping beside the token files) or false, got \(value.summary)", at: value.location)
      }
      if generated && fields.value("map") == nil {
        outputValid = false
        diagnostics.add("\(context): 'output: true' generates the theme's mapping, so the theme needs a 'map:'", at: value.location)
      }
    }
    guard let name, let level, mapValid, outputValid else { return nil }
    var theme = ThemeSpec(name: name, level: level, map: map)
    theme.generatesMapping = generated
    if map != nil { checkMappedBackdrop(theme, config: config, at: fields.value("map")?.location) }
    return theme
  }

  /// `map:`, target token to the tokens that read it: every colour token
  /// placed exactly once (`ThemeMapReader`).
  mutating func map(_ node: YAMLNode, context: String, config: TokenConfig, colorNames: [String: SourceLocation]) -> [ThemeMapEntry]? {
    guard let pairs = node.mapping else {
      diagnostics.add("\(context): 'map' must map main-palette tokens to the lists of tokens that read them (e.g. 'surface: [surface, cardSurface]'), got \(node.summary)", at: node.location)
      return nil
    }
    let known = Array(colorNames.keys).sorted()
    if known.isEmpty {
      diagnostics.add("\(context): 'map' needs colour tokens to map, and the config declares none", at: node.location)
      return nil
    }
    var reader = ThemeMapReader(context: context, known: known)
    var entries: [ThemeMapEntry] = []
    for pair in pairs {
      if let entry = reader.entry(pair, &diagnostics) { entries.append(entry) }
    }
    reader.checkEveryTokenPlaced(colorNames, at: node.location, &diagnostics)
    return reader.valid ? entries : nil
  }

  /// Through a theme's map the backdrop may land on a translucent token; it must stay opaque.
  mutating func checkMappedBackdrop(_ theme: ThemeSpec, config: TokenConfig, at location: SourceLocation?) {
    guard let contrast = config.contrast else { return }
    let source = theme.source(of: contrast.backdrop)
    guard let token = config.colors.first(where: { $0.name == source }) else { return }
    if let appearance = Appearance.allCases.first(where: { token.value($0).alpha.map { $0 < 1 } ?? false }) {
      diagnostics.add(
        "theme '\(theme.name)': the backdrop '\(contrast.backdrop)' reads '\(source)', which is translucent in the \(appearance.rawValue) appearance; map the backdrop onto an opaque token",
        at: location)
    }
  }
}
