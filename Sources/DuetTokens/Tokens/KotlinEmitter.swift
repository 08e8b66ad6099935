import DuetModel
import DuetSupport

/// The Kotlin side of the generator: pure functions from the checked config to
/// the text of each file, in the shapes docs/design-tokens.md shows. No trailing commas in
/// argument lists, so the output compiles on Kotlin 1.3 as on every later one.
enum KotlinEmitter {
  /// Lines of a `when` entry that would pass this column put the value on the next line.
  static let lineLimit = 100

  static func colorVocabulary(_ config: TokenConfig, target: KotlinTarget) -> String {
    vocabulary(
      config, target: target, type: TokenFileNames.color,
      groups: config.colorGroups.map { ($0.heading, $0.tokens.map { ($0.name, $0.doc) }) })
  }

  static func fontVocabulary(_ config: TokenConfig, target: KotlinTarget) -> String {
    vocabulary(
      config, target: target, type: TokenFileNames.font,
      groups: config.fontGroups.map { ($0.heading, $0.tokens.map { ($0.name, $0.doc) }) })
  }

  static func gradientVocabulary(_ config: TokenConfig, target: KotlinTarget) -> String {
    vocabulary(config, target: target, type: TokenFileNames.gradient, groups: [(nil, config.gradients.map { ($0.name, $0.doc) })])
  }

  /// `enum class <type> { ... }`: `// <group>` sections, KDoc from `doc`.
  static func vocabulary(
    _ config: TokenConfig, target: KotlinTarget, type: String,
    groups: [(heading: String?, tokens: [(name: String, doc: String?)])]
  ) -> String {
    var out = SourceText()
    out.add(contentsOf: generatedBanner(config, .kotlin))
    out.blank()
    out.add("package \(target.package)")
    out.blank()
    out.add("enum class \(type) {")
    for group in groups {
      if let heading = group.heading {
        out.blank()
        out.add("// \(heading, in: .comment(.kotlin))", indent: 1)
      }
      for token in group.tokens {
        out.blank()
        if let doc = token.doc { kdoc(&out, doc, indent: 1) }
        out.line(indent: 1) { $0.write(code: token.name); $0.write(",") }
      }
    }
    out.add("}")
    return out.text
  }

  /// `<palette>.kt`: `object <palette>` with one exhaustive `when` per vocabulary.
  static func palette(_ config: TokenConfig, target: KotlinTarget) -> String {
    var out = SourceText()
    out.add(contentsOf: generatedBanner(config, .kotlin))
    out.blank()
    out.add("package \(target.package)")
    out.blank()
    out.add("import \(target.engine).ColorToken")
    out.add("import \(target.engine).FontFamilyToken")
    out.add("import \(target.engine).FontToken")
    if !config.gradients.isEmpty { out.add("import \(target.engine).GradientToken") }
    out.blank()
    out.add("object \(target.palette) {")

    colorFunction(&out, config)
    out.blank()
    fontFunction(&out, config)
    if !config.gradients.isEmpty {
      out.blank()
      gradientFunction(&out, config)
    }
    out.add("}")
    return out.text
  }

  /// The palette's `fun color(token:)`.
  private static func colorFunction(_ out: inout SourceText, _ config: TokenConfig) {
    out.add("fun color(token: \(TokenFileNames.color)): ColorToken =", indent: 1)
    openWhen(&out, vocabulary: TokenFileNames.color, empty: config.colors.isEmpty)
    table(&out, groups: config.colorGroups.map { ($0.heading, $0.tokens) }) { out, token in colorEntry(&out, token) }
    exhaustiveEnd(&out, empty: config.colors.isEmpty)
  }

  /// The palette's `fun font(token:)`.
  private static func fontFunction(_ out: inout SourceText, _ config: TokenConfig) {
    out.add("fun font(token: \(TokenFileNames.font)): FontToken =", indent: 1)
    openWhen(&out, vocabulary: TokenFileNames.font, empty: config.fonts.isEmpty)
    table(&out, groups: config.fontGroups.map { ($0.heading, $0.tokens) }) { out, token in fontEntry(&out, token) }
    exhaustiveEnd(&out, empty: config.fonts.isEmpty)
  }

  /// `SemanticFont.name -> FontToken(...)`, one argument a line.
  private static func fontEntry(_ out: inout SourceText, _ token: FontToken) {
    if let note = token.note { out.comment(note, prefix: "      // ", in: .kotlin) }
    out.add("\(TokenFileNames.font).\(token.name) -> FontToken(", indent: 3)
    let arguments: [SourceLine] = [
      "family = FontFamilyToken.\(familyName(token.family))",
      "weight = \(token.weight)",
      "sizeSp = \(floatLiteral(token.size))",
      "lineHeightSp = \(floatLiteral(token.lineHeight))",
      "trackingEm = \(floatLiteral(token.tracking))",
      "opticalSize = \(token.opticalSize.map(floatLiteral) ?? "null")",
      "softness = \(token.softness.map(floatLiteral) ?? "null")",
      "width = \(token.width.map(floatLiteral) ?? "null")",
    ]
    for (index, argument) in arguments.enumerated() {
      out.add(argument + (index == arguments.count - 1 ? "" : ","), indent: 4)
    }
    out.add(")", indent: 3)
  }

  /// The palette's `fun gradient(token:)`, written only when the config has gradients.
  private static func gradientFunction(_ out: inout SourceText, _ config: TokenConfig) {
    out.add("fun gradient(token: \(TokenFileNames.gradient)): GradientToken =", indent: 1)
    openWhen(&out, vocabulary: TokenFileNames.gradient, empty: false)
    table(&out, groups: [(nil, config.gradients)]) { out, token in gradientEntry(&out, token) }
    exhaustiveEnd(&out, empty: false)
  }

  /// `SemanticGradient.name -> GradientToken.fixed(listOf(...))`, or `.auto(...)`
  /// with one stop list a line.
  private static func gradientEntry(_ out: inout SourceText, _ token: GradientToken) {
    switch token.stops {
    case .single(let stops):
      entry(&out, vocabulary: TokenFileNames.gradient, name: token.name, note: token.note) { $0.write("GradientToken.fixed(\(stopList(stops)))") }
    case .lightDark(let light, let dark):
      // Two stop lists rarely fit one line: one argument a line, as fonts are.
      if let note = token.note { out.comment(note, prefix: "      // ", in: .kotlin) }
      out.add("\(TokenFileNames.gradient).\(token.name) -> GradientToken.auto(", indent: 3)
      out.add("light = \(stopList(light)),", indent: 4)
      out.add("dark = \(stopList(dark))", indent: 4)
      out.add(")", indent: 3)
    }
  }

  /// The entries of one `when`, `// <group>` before each headed group, groups apart by a blank line.
  static func table<Token>(
    _ out: inout SourceText, groups: [(heading: String?, tokens: [Token])],
    entry: (inout SourceText, Token) -> Void
  ) {
    var first = true
    for group in groups {
      if !first { out.blank() }
      first = false
      if let heading = group.heading { out.add("// \(heading, in: .comment(.kotlin))", indent: 3) }
      for token in group.tokens { entry(&out, token) }
    }
  }

  /// `SemanticColor.name -> ColorToken.fixed(0xAARRGGBB)`, or `.auto(light = ..., dark = ...)`.
  static func colorEntry(_ out: inout SourceText, _ token: ColorToken) {
    entry(&out, vocabulary: TokenFileNames.color, name: token.name, note: token.note) { out in
      switch token.values {
      case .single(let color):
        out.write("ColorToken.fixed(0x")
        out.write(code: color.argbHex)
        out.write(")")
      case .lightDark(let light, let dark):
        out.write("ColorToken.auto(light = 0x")
        out.write(code: light.argbHex)
        out.write(", dark = 0x")
        out.write(code: dark.argbHex)
        out.write(")")
      }
    }
  }

  /// `Vocabulary.name -> value`, the note above it, the value on its own line past 100 columns.
  /// The line is written in place with the value `value` appends, and taken
  /// back for the two-line form only when it turns out too long.
  static func entry(
    _ out: inout SourceText, vocabulary: String, name: String, note: String?, value: (inout SourceText) -> Void
  ) {
    if let note { out.comment(note, prefix: "      // ", in: .kotlin) }
    let start = out.count
    out.line(indent: 3) { $0.write(code: vocabulary); $0.write("."); $0.write(code: name); $0.write(" -> "); value(&$0) }
    if out.columns(ofLineFrom: start) <= lineLimit { return }
    out.remove(from: start)
    out.line(indent: 3) { $0.write(code: vocabulary); $0.write("."); $0.write(code: name); $0.write(" ->") }
    out.line(indent: 4) { value(&$0) }
  }

  /// Opens a `when` over the vocabulary. An enum with no entries has no branch
  /// a `when` could be exhaustive with (Kotlin 1.3 rejects an empty one), so
  /// the function throws instead: there is no token to ask for.
  static func openWhen(_ out: inout SourceText, vocabulary: String, empty: Bool) {
    if empty {
      out.add("throw IllegalStateException(\"no value for $token: the config declares no \(vocabulary) tokens\")", indent: 2)
    } else {
      out.add("when (token) {", indent: 2)
    }
  }

  /// Closes a `when` that `openWhen` opened.
  static func exhaustiveEnd(_ out: inout SourceText, empty: Bool) {
    if !empty { out.add("}", indent: 2) }
  }

  /// The banner, the `package` line and `imports`, each part followed by a blank line.
  static func opening(_ config: TokenConfig, target: KotlinTarget, imports: [String]) -> SourceText {
    var out = SourceText()
    out.add(contentsOf: generatedBanner(config, .kotlin))
    out.blank()
    out.add("package \(target.package)")
    out.blank()
    if !imports.isEmpty {
      out.add(contentsOf: imports.map { "import \($0)" })
      out.blank()
    }
    return out
  }

  /// `doc` as a KDoc block at `indent` levels.
  static func kdoc(_ out: inout SourceText, _ doc: String, indent: Int) {
    let pad = String(repeating: "  ", count: indent)
    out.add("/**", indent: indent)
    out.comment(doc, prefix: pad + " * ", in: .kotlin)
    out.add(" */", indent: indent)
  }

  static func stopList(_ stops: [RGB]) -> String {
    "listOf(" + stops.map { "0xFF\($0.hex)" }.joined(separator: ", ") + ")"
  }

  static func familyName(_ family: FontFamily) -> String {
    switch family {
    case .serif: return "Serif"
    case .sans: return "Sans"
    case .mono: return "Mono"
    }
  }
}
