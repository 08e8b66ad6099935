import Foundation
import DuetModel
import DuetSupport

/// Reads a token config with libyaml and checks all of it against the format docs/design-tokens.md gives,
/// collecting every problem (with the token it sits on and the form expected)
/// before it reports, so one run shows everything to fix.
package enum TokenConfigLoader {
  static let topKeys = [
    "version", "swift", "kotlin", "tokens", "colors", "fonts", "gradients", "spacing", "radius", "contrast", "themes",
  ]
  static let swiftKeys = ["output", "style", "engine", "theme"]
  static let kotlinKeys = ["output", "package", "style", "engine", "palette"]
  static let groupKeys = ["group", "tokens"]
  static let colorKeys = ["name", "doc", "note", "light", "dark", "lightAlpha", "darkAlpha", "value", "alpha"]
  static let fontKeys = [
    "name", "doc", "note", "family", "weight", "size", "lineHeight", "tracking", "opticalSize", "softness",
    "width", "swift",
  ]
  static let fontSwiftKeys = ["textStyle"]
  static let gradientKeys = ["name", "doc", "note", "stops", "light", "dark"]

  /// Reads and checks the config at `path` (relative to `root`).
  package static func load(root: URL, path: String = TokenConfig.defaultPath) throws(TokenConfigError) -> TokenConfig {
    try load(url: root.appendingPathComponent(path), path: path, root: root)
  }

  /// Reads and checks the config at `url`; `path` names it in messages and
  /// banners, and `root` is the tree the DTCG files `tokens:` names lie in.
  /// A `theme-test.yaml` beside the config holds its theme-test settings.
  static func load(url: URL, path: String, root: URL) throws(TokenConfigError) -> TokenConfig {
    let data: Data
    do {
      data = try YAMLParser.read(url, file: path)
    } catch {
      throw TokenConfigError(diagnostics: error.diagnostics)
    }
    let themeTest = ThemeTestFile.beside(configURL: url, configPath: path)
    if let config = readByEvents(data, path: path, root: root, themeTest: themeTest) { return config }
    let node: YAMLNode
    do {
      node = try YAMLParser.parse(data, file: path)
    } catch {
      throw TokenConfigError(diagnostics: error.diagnostics)
    }
    return try parse(node, path: path, root: root, themeTest: themeTest)
  }

  /// Parses and checks config text; `path` names it in messages and banners,
  /// and `root` (when given) is where the files `tokens:` names are read from.
  static func parse(_ text: String, path: String, root: URL? = nil) throws(TokenConfigError) -> TokenConfig {
    if let config = readByEvents(Data(text.utf8), path: path, root: root, themeTest: nil) { return config }
    return try parseChecked(text, path: path, root: root)
  }

  /// `parse(_:path:root:)` through the `YAMLNode` tree alone: the path every
  /// diagnostic comes from, and the reference `TokenEventReader` is tested against.
  static func parseChecked(_ text: String, path: String, root: URL? = nil) throws(TokenConfigError) -> TokenConfig {
    let node: YAMLNode
    do {
      node = try YAMLParser.parse(text, file: path)
    } catch {
      throw TokenConfigError(diagnostics: error.diagnostics)
    }
    return try parse(node, path: path, root: root)
  }

  /// The config read straight from libyaml's events (`TokenEventReader`), or
  /// nil when it has anything to report or a form left to the checked path.
  static func readByEvents(_ data: Data, path: String, root: URL?, themeTest: ThemeTestFile?) -> TokenConfig? {
    guard TextBytes.firstProblem(in: data) == nil else { return nil }
    return data.withUnsafeBytes { raw in
      TokenEventReader.read(raw.bindMemory(to: UInt8.self), path: path, root: root, themeTest: themeTest)
    }
  }

  /// Checks an already-parsed document; the core of `load`, pure but for the DTCG files `tokens:` names.
  static func parse(_ node: YAMLNode, path: String, root: URL? = nil, themeTest: ThemeTestFile? = nil) throws(TokenConfigError) -> TokenConfig {
    var reader = Reader()
    reader.root = root
    reader.themeTestFile = themeTest
    let config = reader.config(node, path: path)
    guard reader.diagnostics.isEmpty, let config else {
      throw TokenConfigError(diagnostics: reader.diagnostics.items)
    }
    return config
  }

  /// One pass over the document, adding every problem to `diagnostics`.
  struct Reader {
    var diagnostics = DiagnosticList()
    /// The tree root, for the DTCG files `tokens:` names; nil when parsing text alone.
    var root: URL?
    /// The colour values written as `"{token}"`, resolved after every colour is read.
    var colorAliases: [PendingColorAlias] = []
    /// Where theme-test settings kept beside the config would be; read when it exists.
    var themeTestFile: ThemeTestFile?
    /// The colours and fonts `TokenEventReader` already read, checked, from the events.
    var preread = PrereadTokens()

    mutating func config(_ node: YAMLNode, path: String) -> TokenConfig? {
      guard let top = YAMLFields(node, context: "the token config", allowed: TokenConfigLoader.topKeys, diagnostics: &diagnostics) else {
        return nil
      }
      checkVersion(top.value("version"), in: node)
      var config = TokenConfig(path: path)
      targets(top, in: node, into: &config)
      var colorNames: [String: SourceLocation] = [:]
      var fontNames: [String: SourceLocation] = [:]
      guard readTokens(top, into: &config, colorNames: &colorNames, fontNames: &fontNames) else { return config }
      checkStyles(config, top: top, colorNames: colorNames)
      config.contrast = contrast(top.value("contrast"), config: config, colorNames: colorNames, fontNames: fontNames)
      config.themes = themes(top.value("themes"), config: config, colorNames: colorNames)
      if let file = themeTestFile, FileManager.default.fileExists(atPath: file.url.path) {
        themeTestSettings(file, top: top, into: &config, colorNames: colorNames, fontNames: fontNames)
      }
      return config
    }

    /// `version:`, required: 1, or a newer version this duet cannot read.
    mutating func checkVersion(_ version: YAMLNode?, in node: YAMLNode) {
      guard let version else {
        diagnostics.add("the token config: missing 'version' (write 'version: 1' at the top)", at: node.location)
        return
      }
      guard case .scalar(let text, plain: true) = version.kind, let number = Int(text), number >= 1 else {
        diagnostics.add("the token config: 'version' must be 1, got \(version.summary)", at: version.location)
        return
      }
      if number > TokenConfig.newestVersion {
        diagnostics.add(
          "token config version \(number) is newer than this duet understands (\(TokenConfig.newestVersion)); upgrade duet",
          at: version.location)
      }
    }

    /// The `swift:` and `kotlin:` targets: at least one, each in a folder of its own.
    mutating func targets(_ top: YAMLFields, in node: YAMLNode, into config: inout TokenConfig) {
      let context = "the token config"
      if let value = top.value("swift") { config.swift = swiftTarget(value) }
      if let value = top.value("kotlin") { config.kotlin = kotlinTarget(value) }
      if !top.has("swift") && !top.has("kotlin") {
        diagnostics.add("\(context): declares no target; add 'swift:' (output, engine, theme) and/or 'kotlin:' (output, package, engine, palette)", at: node.location)
      }
      if let swift = config.swift, let kotlin = config.kotlin, normalizedOutputFolder(swift.output) == normalizedOutputFolder(kotlin.output) {
        diagnostics.add("\(context): the swift and kotlin targets share the output folder '\(swift.output)'; give each its own", at: top.value("kotlin")?["output"]?.location ?? node.location)
      }
    }

    /// The colours, type, gradients and scales, from the config itself and
    /// from the DTCG files `tokens:` names; every token's name is recorded
    /// with where it is declared. False when a DTCG file fails to give its
    /// tokens: each pair and theme naming one would be an error too, so the
    /// file is to be fixed first.
    mutating func readTokens(
      _ top: YAMLFields, into config: inout TokenConfig,
      colorNames: inout [String: SourceLocation], fontNames: inout [String: SourceLocation]
    ) -> Bool {
      if let colors = preread.colorGroups {
        config.colorGroups = colors
        colorNames = preread.colorNames
        colorAliases = preread.colorAliases
      } else {
        config.colorGroups = groups(top.value("colors"), key: "colors", kind: "colour", names: &colorNames) { reader, item, context, names in
          reader.colorToken(item, context: context, names: &names)
        }
      }
      let needsTextStyle = top.has("swift")
      if let fonts = preread.fontGroups {
        config.fontGroups = fonts
        fontNames = preread.fontNames
      } else {
        config.fontGroups = groups(top.value("fonts"), key: "fonts", kind: "font", names: &fontNames) { reader, item, context, names in
          reader.fontToken(item, context: context, needsTextStyle: needsTextStyle, names: &names)
        }
      }
      resolveColorAliases(&config.colorGroups)
      config.gradients = gradients(top.value("gradients"))
      config.spacing = scale(top.value("spacing"), key: "spacing")
      config.radius = scale(top.value("radius"), key: "radius")
      guard let node = top.value("tokens") else { return true }
      let before = diagnostics.items.count
      tokenSources(node, top: top, needsTextStyle: needsTextStyle, into: &config)
      for token in config.colors { colorNames[token.name] = node.location }
      for token in config.fonts { fontNames[token.name] = node.location }
      return diagnostics.items.count == before
    }

    /// What a target's style cannot generate: a colour SwiftUI's `Color`
    /// already names, or gradients outside style engine.
    mutating func checkStyles(_ config: TokenConfig, top: YAMLFields, colorNames: [String: SourceLocation]) {
      if config.swift?.style == .swiftui {
        for token in config.colors where SwiftUIEmitter.colorMembers.contains(token.name) {
          diagnostics.add(
            "colour token '\(token.name)': SwiftUI's Color already has '\(token.name)', so style swiftui cannot declare it; rename it (e.g. '\(token.name)Ink')",
            at: colorNames[token.name] ?? top.value("colors")?.location)
        }
      }
      for (style, key) in [(config.swift?.style, "swift"), (config.kotlin?.style, "kotlin")] {
        if let style, style != .engine, let first = config.gradients.first, let node = top.value("gradients") {
          diagnostics.add(
            "gradient '\(first.name)': style \(style.rawValue) (the \(key) target) generates no gradients; use style engine there, or drop 'gradients'",
            at: node.location)
        }
      }
    }

    // MARK: Targets

    mutating func swiftTarget(_ node: YAMLNode) -> SwiftTarget? {
      let context = "the swift target"
      guard let fields = YAMLFields(node, context: context, allowed: TokenConfigLoader.swiftKeys, diagnostics: &diagnostics) else { return nil }
      let output = outputPath(fields, context: context)
      guard let style = style(fields, context: context, allowed: [.engine, .swiftui]) else { return nil }
      if style != .engine {
        forbid(["engine", "theme"], in: fields, context: context, style: style, because: "it imports no engine and extends SwiftUI's Color")
        guard let output else { return nil }
        return SwiftTarget(output: output, style: style, engine: "", theme: "", outputLocation: fields.value("output")?.location)
      }
      let engine = identifier(fields, "engine", context: context, example: "DuetTheming", qualified: false)
      let theme = identifier(fields, "theme", context: context, example: "MainTheme", qualified: false)
      guard let output, let engine, let theme else { return nil }
      return SwiftTarget(output: output, engine: engine, theme: theme, outputLocation: fields.value("output")?.location)
    }

    mutating func kotlinTarget(_ node: YAMLNode) -> KotlinTarget? {
      let context = "the kotlin target"
      guard let fields = YAMLFields(node, context: context, allowed: TokenConfigLoader.kotlinKeys, diagnostics: &diagnostics) else { return nil }
      let output = outputPath(fields, context: context)
      let package = identifier(fields, "package", context: context, example: "dev.modaal.foyer.theming", qualified: true)
      guard let style = style(fields, context: context, allowed: [.engine, .compose]) else { return nil }
      if style != .engine {
        forbid(["engine", "palette"], in: fields, context: context, style: style, because: "it imports no engine and writes Compose values")
        guard let output, let package else { return nil }
        return KotlinTarget(output: output, package: package, style: style, engine: "", palette: "", outputLocation: fields.value("output")?.location)
      }
      let engine = identifier(fields, "engine", context: context, example: "dev.modaal.duet.services.theming", qualified: true)
      let palette = identifier(fields, "palette", context: context, example: "MainPalette", qualified: false)
      guard let output, let package, let engine, let palette else { return nil }
      return KotlinTarget(output: output, package: package, engine: engine, palette: palette, outputLocation: fields.value("output")?.location)
    }

    /// A target's `style:`; `engine` when the config gives none.
    mutating func style(_ fields: YAMLFields, context: String, allowed: [TokenStyle]) -> TokenStyle? {
      guard let value = fields.value("style") else { return .engine }
      let names = allowed.map(\.rawValue)
      if let text = value.scalar, let style = TokenStyle(rawValue: text), allowed.contains(style) { return style }
      let hint = value.scalar.map { Suggestion.hint(for: $0, in: names) } ?? ""
      diagnostics.add("\(context): 'style' must be \(names.joined(separator: " or ")), got \(value.summary)\(hint)", at: value.location)
      return nil
    }

    /// The engine style's keys, refused by name in another style rather than ignored.
    mutating func forbid(_ keys: [String], in fields: YAMLFields, context: String, style: TokenStyle, because reason: String) {
      for key in keys where fields.has(key) {
        diagnostics.add("\(context): '\(key)' belongs to style engine; style \(style.rawValue) has none, as \(reason)", at: fields.keyLocation(key))
      }
    }

    /// A folder relative to the tree root that stays inside it.
    mutating func outputPath(_ fields: YAMLFields, context: String) -> String? {
      guard let text = fields.string("output", required: true, diagnostics: &diagnostics) else { return nil }
      let components = text.split(separator: "/").map(String.init)
      if text.hasPrefix("/") || text.hasPrefix("~") || components.contains("..") {
        diagnostics.add("\(context): 'output' must be a folder inside the tree (relative, no '..'), got \"\(text)\"", at: fields.value("output")?.location)
        return nil
      }
      return normalizedOutputFolder(text)
    }

    mutating func identifier(_ fields: YAMLFields, _ key: String, context: String, example: String, qualified: Bool) -> String? {
      guard let text = fields.string(key, required: true, diagnostics: &diagnostics) else { return nil }
      let valid = qualified
        ? TokenNames.isQualifiedName(text)
        : TokenNames.isIdentifier(text) && !TokenNames.swiftReserved.contains(text) && !TokenNames.kotlinHardKeywords.contains(text)
      if !valid {
        let form = qualified ? "a dotted name such as '\(example)'" : "an identifier such as '\(example)'"
        diagnostics.add("\(context): '\(key)' must be \(form), got \"\(text)\"", at: fields.value(key)?.location)
        return nil
      }
      return text
    }

    // MARK: Groups

    /// `colors:` or `fonts:`: a list of `{group, tokens}` mappings.
    /// Every token's name goes into `names`, which `token` is handed to check
    /// the name against.
    mutating func groups<Token>(
      _ node: YAMLNode?, key: String, kind: String, names: inout [String: SourceLocation],
      token: (inout Reader, YAMLNode, String, inout [String: SourceLocation]) -> Token?
    ) -> [TokenGroup<Token>] {
      guard let node, !node.isNull else { return [] }
      guard let items = node.sequence else {
        diagnostics.add("the token config: '\(key)' must be a list of groups ('- group: Name' with 'tokens:'), got \(node.summary)", at: node.location)
        return []
      }
      var result: [TokenGroup<Token>] = []
      for (index, item) in items.enumerated() {
        let heading = item["group"]?.scalar.flatMap { $0.isEmpty ? nil : $0 }
        let context = heading.map { "\(kind) group '\($0)'" } ?? "\(kind) group \(index + 1)"
        guard let fields = YAMLFields(item, context: context, allowed: TokenConfigLoader.groupKeys, diagnostics: &diagnostics) else { continue }
        if let group = fields.value("group") {
          if group.scalar == nil || group.isNull {
            diagnostics.add("\(context): 'group' must be a heading (text), got \(group.summary)", at: group.location)
          } else if let text = group.scalar, text.contains(where: \.isNewline) {
            diagnostics.add("\(context): 'group' must be a heading on one line (it becomes a section comment)", at: group.location)
          }
        }
        guard let tokens = fields.value("tokens") else {
          diagnostics.add("\(context): missing 'tokens' (a list of \(kind) tokens)", at: item.location)
          continue
        }
        guard let tokenItems = tokens.sequence else {
          diagnostics.add("\(context): 'tokens' must be a list of \(kind) tokens, got \(tokens.summary)", at: tokens.location)
          continue
        }
        var parsed: [Token] = []
        for (position, tokenNode) in tokenItems.enumerated() {
          let fallback = "\(kind) token \(position + 1) in \(context)"
          if let value = token(&self, tokenNode, fallback, &names) { parsed.append(value) }
        }
        result.append(TokenGroup(heading: heading, tokens: parsed))
      }
      return result
    }

    /// "colour token 'cardBorder'" when the mapping has a name, so even an
    /// unknown key names the token it sits on; else its position.
    func tokenContext(_ node: YAMLNode, kind: String, fallback: String) -> String {
      if let name = node["name"]?.scalar, !name.isEmpty, !(node["name"]?.isNull ?? true) { return "\(kind) '\(name)'" }
      return fallback
    }

    /// The token's `name`, checked; the context that names it in later messages.
    mutating func name(
      _ fields: YAMLFields, kind: String, vocabulary: String, names: inout [String: SourceLocation]
    ) -> (name: String?, context: String) {
      guard let value = fields.value("name") else {
        diagnostics.add("\(fields.context): missing 'name' (a lowerCamelCase token name)", at: fields.node.location)
        return (nil, fields.context)
      }
      guard let text = value.scalar, !value.isNull else {
        diagnostics.add("\(fields.context): 'name' must be a lowerCamelCase token name, got \(value.summary)", at: value.location)
        return (nil, fields.context)
      }
      let context = fields.context
      if let problem = TokenNames.problem(with: text) {
        diagnostics.add("\(context): the name \(problem)", at: value.location)
        return (nil, context)
      }
      if let first = names[text] {
        diagnostics.add("\(context): duplicate name in \(vocabulary) (first declared at \(first.line):\(first.column))", at: value.location)
        return (nil, context)
      }
      names[text] = value.location
      return (text, context)
    }

    // MARK: Colours

    mutating func colorToken(_ node: YAMLNode, context fallback: String, names: inout [String: SourceLocation]) -> ColorToken? {
      guard let fields = YAMLFields(node, context: tokenContext(node, kind: "colour token", fallback: fallback), allowed: TokenConfigLoader.colorKeys, diagnostics: &diagnostics) else { return nil }
      let (name, context) = self.name(fields, kind: "colour token", vocabulary: "SemanticColor", names: &names)
      let doc = text(fields, "doc")
      let note = text(fields, "note")
      var values: ColorToken.Values?
      let hasPair = fields.has("light") || fields.has("dark")
      if fields.has("value") {
        if hasPair {
          diagnostics.add("\(context): give either 'value' or 'light' and 'dark', not both", at: fields.keyLocation("value"))
        }
        for key in ["lightAlpha", "darkAlpha"] where fields.has(key) {
          diagnostics.add("\(context): '\(key)' belongs with 'light' and 'dark'; with one 'value' write 'alpha'", at: fields.keyLocation(key))
        }
        let rgb = color(fields, "value", token: name, appearances: Appearance.allCases, context: context)
        let alpha = self.alpha(fields, "alpha", context: context)
        if let rgb, !hasPair { values = .single(ColorValue(rgb, alpha: alpha ?? nil)) }
      } else if hasPair {
        if fields.has("alpha") {
          diagnostics.add("\(context): 'alpha' belongs with one 'value'; with 'light' and 'dark' write 'lightAlpha' and 'darkAlpha'", at: fields.keyLocation("alpha"))
        }
        if !fields.has("light") {
          diagnostics.add("\(context): 'dark' without 'light'; give both (\"#RRGGBB\"), or one 'value'", at: fields.keyLocation("dark"))
        }
        if !fields.has("dark") {
          diagnostics.add("\(context): 'light' without 'dark'; give both (\"#RRGGBB\"), or one 'value'", at: fields.keyLocation("light"))
        }
        let light = fields.has("light") ? color(fields, "light", token: name, appearances: [.light], context: context) : nil
        let dark = fields.has("dark") ? color(fields, "dark", token: name, appearances: [.dark], context: context) : nil
        let lightAlpha = alpha(fields, "lightAlpha", context: context)
        let darkAlpha = alpha(fields, "darkAlpha", context: context)
        if let light, let dark {
          values = .lightDark(light: ColorValue(light, alpha: lightAlpha ?? nil), dark: ColorValue(dark, alpha: darkAlpha ?? nil))
        }
      } else {
        diagnostics.add("\(context): no colour; give 'light' and 'dark' (\"#RRGGBB\" each), or one 'value'", at: node.location)
        for key in ["alpha", "lightAlpha", "darkAlpha"] where fields.has(key) { _ = alpha(fields, key, context: context) }
      }
      guard let name, let values else { return nil }
      return ColorToken(name: name, doc: doc, note: note, values: values)
    }

    /// A `"#RRGGBB"` colour under `key`, or an alias `"{token}"`: then a
    /// placeholder, recorded for `resolveColorAliases` to replace once every
    /// colour is known (an alias may name a token declared further down).
    mutating func color(_ fields: YAMLFields, _ key: String, token: String?, appearances: [Appearance], context: String) -> RGB? {
      guard let value = fields.value(key) else { return nil }
      if let text = value.scalar, case .scalar(_, plain: false) = value.kind, let target = TokenAlias.target(of: text) {
        if let token {
          for appearance in appearances {
            colorAliases.append(PendingColorAlias(token: token, appearance: appearance, key: key, target: target, context: context, location: value.location))
          }
        }
        return RGB(0)
      }
      return rgb(value, what: "'\(key)'", context: context)
    }

    mutating func rgb(_ value: YAMLNode, what: String, context: String) -> RGB? {
      if value.isNull {
        diagnostics.add("\(context): \(what) must be a colour \"#RRGGBB\", got nothing (quote it: an unquoted # starts a YAML comment)", at: value.location)
        return nil
      }
      if let pairs = value.mapping, pairs.count == 1, pairs[0].value.isNull, let name = pairs[0].key.scalar {
        diagnostics.add("\(context): \(what) reads as a YAML mapping; quote an alias: \"{\(name)}\"", at: value.location)
        return nil
      }
      guard let text = value.scalar, let rgb = RGB(hex: text) else {
        diagnostics.add("\(context): \(what) must be a colour \"#RRGGBB\" (six hex digits, no alpha) or an alias \"{token}\", got \(value.summary)", at: value.location)
        return nil
      }
      return rgb
    }

    /// An alpha fraction from 0 to 1: `.some(nil)` when absent, nil when invalid.
    mutating func alpha(_ fields: YAMLFields, _ key: String, context: String) -> Double?? {
      guard let value = fields.value(key) else { return .some(nil) }
      guard let number = number(value), number >= 0, number <= 1 else {
        diagnostics.add("\(context): '\(key)' must be a number from 0 to 1, got \(value.summary)", at: value.location)
        return nil
      }
      return .some(number)
    }

    // MARK: Fonts

    mutating func fontToken(
      _ node: YAMLNode, context fallback: String, needsTextStyle: Bool, names: inout [String: SourceLocation]
    ) -> FontToken? {
      guard let fields = YAMLFields(node, context: tokenContext(node, kind: "font token", fallback: fallback), allowed: TokenConfigLoader.fontKeys, diagnostics: &diagnostics) else { return nil }
      let (name, context) = self.name(fields, kind: "font token", vocabulary: "SemanticFont", names: &names)
      let doc = text(fields, "doc")
      let note = text(fields, "note")

      let family = fontFamily(fields, context: context)
      let weight = fontWeight(fields, context: context)
      let size = positive(fields, "size", context: context, required: true)
      let lineHeight = positive(fields, "lineHeight", context: context, required: true)
      let tracking = finite(fields, "tracking", context: context, form: "a number (a fraction of the em, e.g. -0.01)")
      let opticalSize = finite(fields, "opticalSize", context: context, form: "a number")
      let softness = finite(fields, "softness", context: context, form: "a number")
      let width = finite(fields, "width", context: context, form: "a number")
      let textStyle = self.textStyle(fields, context: context)
      if needsTextStyle, case .some(.none) = textStyle {
        diagnostics.add("\(context): missing 'swift: textStyle:' (a swift target is declared, so every font needs the Dynamic Type style it scales against, e.g. 'body')", at: node.location)
      }

      guard let name, let family, let weight, let size = size ?? nil, let lineHeight = lineHeight ?? nil,
        let tracking, let opticalSize, let softness, let width, let textStyle
      else { return nil }
      return FontToken(
        name: name, doc: doc, note: note, family: family, weight: weight, size: size, lineHeight: lineHeight,
        tracking: tracking ?? 0, opticalSize: opticalSize, softness: softness, width: width, textStyle: textStyle)
    }

    /// A font's `family`: serif, sans or mono.
    mutating func fontFamily(_ fields: YAMLFields, context: String) -> FontFamily? {
      guard let value = fields.value("family") else {
        diagnostics.add("\(context): missing 'family' (serif, sans or mono)", at: fields.node.location)
        return nil
      }
      if let text = value.scalar, let parsed = FontFamily(rawValue: text) { return parsed }
      let hint = value.scalar.map { Suggestion.hint(for: $0, in: FontFamily.allCases.map(\.rawValue)) } ?? ""
      diagnostics.add("\(context): 'family' must be one of serif, sans, mono, got \(value.summary)\(hint)", at: value.location)
      return nil
    }

    /// A font's `weight`: a multiple of 100 from 100 to 900, as CSS writes it.
    mutating func fontWeight(_ fields: YAMLFields, context: String) -> Int? {
      guard let value = fields.value("weight") else {
        diagnostics.add("\(context): missing 'weight' (100, 200, ... 900)", at: fields.node.location)
        return nil
      }
      if case .scalar(let text, plain: true) = value.kind, let number = Int(text), number >= 100, number <= 900, number % 100 == 0 {
        return number
      }
      diagnostics.add("\(context): 'weight' must be a multiple of 100 from 100 to 900, got \(value.summary)", at: value.location)
      return nil
    }

    /// A font's `swift: textStyle:`, the Dynamic Type style it scales against:
    /// `.some(nil)` when absent, nil when invalid (a bad `swift:` mapping too).
    mutating func textStyle(_ fields: YAMLFields, context: String) -> String?? {
      guard let swift = fields.value("swift") else { return .some(nil) }
      guard let swiftFields = YAMLFields(swift, context: "\(context): 'swift'", allowed: TokenConfigLoader.fontSwiftKeys, diagnostics: &diagnostics) else {
        return nil
      }
      guard let value = swiftFields.value("textStyle") else { return .some(nil) }
      if let text = value.scalar, TextStyles.all.contains(text) { return .some(text) }
      let hint = value.scalar.map { Suggestion.hint(for: $0, in: TextStyles.all) } ?? ""
      diagnostics.add("\(context): unknown text style \(value.summary)\(hint) (one of \(TextStyles.all.joined(separator: ", ")))", at: value.location)
      return nil
    }

    /// A number above 0: `.some(nil)` when absent and optional, nil when invalid or missing.
    mutating func positive(_ fields: YAMLFields, _ key: String, context: String, required: Bool) -> Double?? {
      guard let value = fields.value(key) else {
        if required {
          diagnostics.add("\(context): missing '\(key)' (a number of points above 0)", at: fields.node.location)
          return nil
        }
        return .some(nil)
      }
      guard let number = number(value), number > 0 else {
        diagnostics.add("\(context): '\(key)' must be a number above 0, got \(value.summary)", at: value.location)
        return nil
      }
      return .some(number)
    }

    /// An optional finite number: `.some(nil)` when absent, nil when invalid.
    mutating func finite(_ fields: YAMLFields, _ key: String, context: String, form: String) -> Double?? {
      guard let value = fields.value(key) else { return .some(nil) }
      guard let number = number(value) else {
        diagnostics.add("\(context): '\(key)' must be \(form), got \(value.summary)", at: value.location)
        return nil
      }
      return .some(number)
    }

    // MARK: Gradients

    mutating func gradients(_ node: YAMLNode?) -> [GradientToken] {
      guard let node, !node.isNull else { return [] }
      guard let items = node.sequence else {
        diagnostics.add("the token config: 'gradients' must be a list of gradients ('- name: ...' with 'stops:' or 'light:' and 'dark:'), got \(node.summary)", at: node.location)
        return []
      }
      var names: [String: SourceLocation] = [:]
      var result: [GradientToken] = []
      for (index, item) in items.enumerated() {
        if let gradient = gradient(item, context: "gradient \(index + 1)", names: &names) { result.append(gradient) }
      }
      return result
    }

    mutating func gradient(_ node: YAMLNode, context fallback: String, names: inout [String: SourceLocation]) -> GradientToken? {
      guard let fields = YAMLFields(node, context: tokenContext(node, kind: "gradient", fallback: fallback), allowed: TokenConfigLoader.gradientKeys, diagnostics: &diagnostics) else { return nil }
      let (name, context) = self.name(fields, kind: "gradient", vocabulary: "SemanticGradient", names: &names)
      let doc = text(fields, "doc")
      let note = text(fields, "note")
      var stops: GradientToken.Stops?
      let hasPair = fields.has("light") || fields.has("dark")
      if fields.has("stops") {
        if hasPair {
          diagnostics.add("\(context): give either 'stops' or 'light' and 'dark', not both", at: fields.keyLocation("stops"))
        }
        if let list = stopList(fields, "stops", context: context), !hasPair { stops = .single(list) }
      } else if hasPair {
        if !fields.has("light") {
          diagnostics.add("\(context): 'dark' without 'light'; give both stop lists, or one 'stops'", at: fields.keyLocation("dark"))
        }
        if !fields.has("dark") {
          diagnostics.add("\(context): 'light' without 'dark'; give both stop lists, or one 'stops'", at: fields.keyLocation("light"))
        }
        let light = fields.has("light") ? stopList(fields, "light", context: context) : nil
        let dark = fields.has("dark") ? stopList(fields, "dark", context: context) : nil
        if let light, let dark { stops = .lightDark(light: light, dark: dark) }
      } else {
        diagnostics.add("\(context): no stops; give 'stops' (two or more \"#RRGGBB\"), or 'light' and 'dark' stop lists", at: node.location)
      }
      guard let name, let stops else { return nil }
      return GradientToken(name: name, doc: doc, note: note, stops: stops)
    }

    mutating func stopList(_ fields: YAMLFields, _ key: String, context: String) -> [RGB]? {
      guard let value = fields.value(key) else { return nil }
      guard let items = value.sequence else {
        diagnostics.add("\(context): '\(key)' must be a list of two or more colours \"#RRGGBB\", got \(value.summary)", at: value.location)
        return nil
      }
      var result: [RGB] = []
      var valid = true
      for (index, item) in items.enumerated() {
        if let rgb = rgb(item, what: "stop \(index + 1) of '\(key)'", context: context) { result.append(rgb) } else { valid = false }
      }
      if items.count < 2 {
        diagnostics.add("\(context): '\(key)' needs at least two stops, got \(items.count)", at: value.location)
        return nil
      }
      return valid ? result : nil
    }

    // MARK: Scalars

    /// Optional prose (`doc`, `note`); text is kept as YAML folded it.
    mutating func text(_ fields: YAMLFields, _ key: String) -> String? {
      guard let value = fields.value(key) else { return nil }
      guard let text = value.scalar, !value.isNull else {
        diagnostics.add("\(fields.context): '\(key)' must be text, got \(value.summary)", at: value.location)
        return nil
      }
      return TokenConfigLoader.trimmed(text)
    }

    /// A plain (unquoted) finite number.
    func number(_ node: YAMLNode) -> Double? {
      guard case .scalar(let text, plain: true) = node.kind else { return nil }
      return TokenConfigLoader.number(text)
    }
  }

  /// Prose as kept: without the white space around it; nil when nothing else is left.
  static func trimmed(_ text: String) -> String? {
    // Most texts start and end with a visible ASCII character: nothing to trim.
    if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return text }
    var trimmed = Substring(text)
    while let first = trimmed.first, first.isWhitespace { trimmed = trimmed.dropFirst() }
    while let last = trimmed.last, last.isWhitespace { trimmed = trimmed.dropLast() }
    return trimmed.isEmpty ? nil : String(trimmed)
  }

  /// The finite number a plain scalar's `text` writes, if any.
  static func number(_ text: String) -> Double? {
    guard !text.isEmpty else { return nil }
    // Digits, signs, point and exponent only: no `.inf`, `nan` or hex forms.
    let numeric = text.utf8.allSatisfy { byte in
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }
    guard numeric, let number = Double(text), number.isFinite else { return nil }
    return number
  }
}

/// `a/b/` and `./a/b` are the folder `a/b`.
package func normalizedOutputFolder(_ path: String) -> String {
  path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
}
