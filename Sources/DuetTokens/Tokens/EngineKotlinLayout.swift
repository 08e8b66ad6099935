import DuetModel
import DuetSupport

/// The Kotlin token files in the layout the Duet toolchain's engine writes
/// them (see `EngineSwiftLayout`): KDoc on documented entries after a blank
/// line, notes straight above their entry, a `when` entry past 100 columns
/// broken after `->`, fonts and gradients one argument a line with the
/// engine's trailing commas. The engine's own words come from the file on disk.
enum EngineKotlinLayout {
  static let lineLimit = 100

  /// A vocabulary: `enum class <type> { ... }`.
  static func vocabulary(
    _ prose: EngineProse, target: KotlinTarget, type: String,
    groups: [(heading: String?, tokens: [(name: String, doc: String?)])]
  ) -> String {
    var out = EngineLines()
    out.keep(prose.banner)
    out.add(["", "package \(target.package)", ""])
    let declaration: SourceLine = "enum class \(type) {"
    out.keep(prose.block(declaration.text))
    out.add(declaration)
    for group in groups {
      if let heading = group.heading { out.add(["", "  // \(heading, in: .comment(.kotlin))"]) }
      for token in group.tokens {
        if let doc = token.doc {
          out.blank()
          out.kdoc(doc, indent: "  ")
        }
        out.add("  \(token.name),")
      }
    }
    out.add("}")
    return out.text
  }

  /// `<palette>.kt`: `object <palette>` with one `when` per vocabulary.
  static func palette(_ prose: EngineProse, config: TokenConfig, target: KotlinTarget) -> String {
    var out = EngineLines()
    out.keep(prose.banner)
    out.add(["", "package \(target.package)", ""])
    out.add(["ColorToken", "FontFamilyToken", "FontToken"].map { "import \(target.engine).\($0)" })
    if !config.gradients.isEmpty { out.add("import \(target.engine).GradientToken") }
    out.blank()
    let declaration: SourceLine = "object \(target.palette) {"
    out.keep(prose.block(declaration.text))
    out.add([declaration, "", "  fun color(token: \(TokenFileNames.color)): ColorToken =", "    when (token) {"])
    for group in config.colorGroups {
      heading(&out, group.heading)
      for token in group.tokens { colorEntry(&out, token) }
    }
    out.add(["    }", "", "  fun font(token: \(TokenFileNames.font)): FontToken =", "    when (token) {"])
    for group in config.fontGroups {
      heading(&out, group.heading)
      for token in group.tokens { fontEntry(&out, token) }
    }
    out.add("    }")
    if !config.gradients.isEmpty {
      out.add(["", "  fun gradient(token: \(TokenFileNames.gradient)): GradientToken =", "    when (token) {"])
      for token in config.gradients { gradientEntry(&out, token) }
      out.add("    }")
    }
    out.add("}")
    return out.text
  }

  private static func heading(_ out: inout EngineLines, _ heading: String?) {
    guard let heading else { return }
    out.add(["", "      // \(heading, in: .comment(.kotlin))"])
  }

  /// `SemanticColor.name -> ColorToken...`, the value on the next line past 100 columns.
  private static func colorEntry(_ out: inout EngineLines, _ token: ColorToken) {
    if let note = token.note { out.comment(note, prefix: "      // ", in: .kotlin) }
    let value: String
    switch token.values {
    case .single(let color): value = "ColorToken.fixed(0x\(color.argbHex))"
    case .lightDark(let light, let dark): value = "ColorToken.auto(light = 0x\(light.argbHex), dark = 0x\(dark.argbHex))"
    }
    let line: SourceLine = "      \(TokenFileNames.color).\(token.name) -> \(value)"
    if line.text.count <= lineLimit {
      out.add(line)
    } else {
      out.add(["      \(TokenFileNames.color).\(token.name) ->", "        \(value)"])
    }
  }

  /// `SemanticFont.name ->` and `FontToken(` an argument a line, each with a comma.
  private static func fontEntry(_ out: inout EngineLines, _ token: FontToken) {
    if let note = token.note { out.comment(note, prefix: "      // ", in: .kotlin) }
    out.add([
      "      \(TokenFileNames.font).\(token.name) ->",
      "        FontToken(",
      "          family = FontFamilyToken.\(KotlinEmitter.familyName(token.family)),",
      "          weight = \(token.weight),",
      "          sizeSp = \(floatLiteral(token.size)),",
      "          lineHeightSp = \(floatLiteral(token.lineHeight)),",
      "          trackingEm = \(floatLiteral(token.tracking)),",
      "          opticalSize = \(token.opticalSize.map(floatLiteral) ?? "null"),",
      "          softness = \(token.softness.map(floatLiteral) ?? "null"),",
      "          width = \(token.width.map(floatLiteral) ?? "null"),",
      "        )",
    ])
  }

  /// A gradient after a blank line: `GradientToken.fixed(listOf(...))` or
  /// `.auto(` with a stop list a line.
  private static func gradientEntry(_ out: inout EngineLines, _ token: GradientToken) {
    out.blank()
    if let note = token.note { out.comment(note, prefix: "      // ", in: .kotlin) }
    out.add("      \(TokenFileNames.gradient).\(token.name) ->")
    switch token.stops {
    case .single(let list):
      out.add(stops(list, opening: "        GradientToken.fixed(", indent: "        ", trailing: ")"))
    case .lightDark(let light, let dark):
      out.add("        GradientToken.auto(")
      out.add(stops(light, opening: "          light = ", indent: "          ", trailing: ","))
      out.add(stops(dark, opening: "          dark = ", indent: "          ", trailing: ","))
      out.add("        )")
    }
  }

  /// `listOf(...)` on one line when it fits 100 columns, else a stop a line.
  private static func stops(_ stops: [RGB], opening: String, indent: String, trailing: String) -> [SourceLine] {
    let values = stops.map { "0xFF\($0.hex)" }
    let line: SourceLine = "\(opening)listOf(\(values.joined(separator: ", ")))\(trailing)"
    if line.text.count <= lineLimit { return [line] }
    return ["\(opening)listOf("] + values.map { "\(indent)  \($0)," } + ["\(indent))\(trailing)"]
  }
}
