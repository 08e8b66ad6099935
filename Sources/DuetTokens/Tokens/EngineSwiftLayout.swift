import DuetModel
import DuetSupport

/// The Swift token files in the layout the Duet toolchain's engine writes them,
/// for a tree whose files the engine wrote (docs/design-tokens.md, "Files the
/// engine wrote"). The code is the code `SwiftEmitter` writes; the layout is
/// the engine's: its blank lines, its line breaks at 100 columns, a blank line
/// before each documented case, noted colour and every font and gradient case.
/// The engine's own words come from the file on disk (`EngineProse`).
enum EngineSwiftLayout {
  /// A vocabulary (`SemanticColor`, `SemanticFont`, `SemanticGradient`).
  static func vocabulary(
    _ prose: EngineProse, target: SwiftTarget, type: String, conformance: String,
    groups: [(heading: String?, tokens: [(name: String, doc: String?)])]
  ) -> String {
    var out = EngineLines()
    out.keep(prose.banner)
    out.blank()
    out.add(["#if os(iOS)", "", "import \(target.engine)", ""])
    let declaration: SourceLine = "public enum \(type): \(conformance) {"
    out.keep(prose.block(declaration.text))
    out.add(declaration)
    for group in groups {
      if let heading = group.heading {
        out.add(["", "  // MARK: - \(heading, in: .comment(.swift))", ""])
      }
      for token in group.tokens {
        if let doc = token.doc {
          out.blank()
          out.comment(doc, prefix: "  /// ", in: .swift)
        }
        out.add("  case \(token.name)")
      }
    }
    out.add(["}", "", "#endif"])
    return out.text
  }

  /// `<theme>Palette.swift`: the colour, type and gradient tables and `tokenColor`.
  static func palette(_ prose: EngineProse, config: TokenConfig, target: SwiftTarget) -> String {
    var out = EngineLines()
    out.keep(prose.banner)
    out.blank()
    out.add(["#if os(iOS)", "", "import UIKit"])
    if !config.gradients.isEmpty { out.add("import SwiftUI") }
    out.add(["import \(target.engine)", ""])
    table(&out, prose, theme: target.theme, kind: "Color", vocabulary: TokenFileNames.color, signature: "colorSet(for asset: _ColorAsset) -> ColorSet") {
      for group in config.colorGroups {
        heading(&$0, group.heading)
        for token in group.tokens { colorEntry(&$0, token) }
      }
    }
    fontTypes(&out, prose, theme: target.theme)
    table(&out, prose, theme: target.theme, kind: "Font", vocabulary: TokenFileNames.font, signature: "fontToken(for asset: _FontAsset) -> FontToken") {
      for group in config.fontGroups {
        heading(&$0, group.heading)
        for token in group.tokens { fontEntry(&$0, token) }
      }
    }
    if !config.gradients.isEmpty {
      table(&out, prose, theme: target.theme, kind: "Gradient", vocabulary: TokenFileNames.gradient, signature: "gradientSet(for asset: _GradientAsset) -> GradientSet") {
        for token in config.gradients { gradientEntry(&$0, token) }
      }
    }
    out.keep(prose.block(SwiftEmitter.tokenColor[0].text))
    out.add(SwiftEmitter.tokenColor + ["", "#endif"])
    return out.text
  }

  /// One lookup in its own extension: the typealias, the function and its
  /// exhaustive `switch`, whose cases `cases` writes.
  private static func table(
    _ out: inout EngineLines, _ prose: EngineProse, theme: String, kind: String, vocabulary: String, signature: String,
    cases: (inout EngineLines) -> Void
  ) {
    let declaration: SourceLine = "extension \(theme) {"
    let alias: SourceLine = "public typealias _\(kind)Asset = \(vocabulary)"
    out.keep(prose.block(declaration.text, next: alias.text))
    out.add([declaration, "  " + alias, "", "  public func \(signature) {", "    switch asset {"])
    cases(&out)
    out.add(["    }", "  }", "}", ""])
  }

  /// `// MARK: <group>` between blank lines, for a headed group.
  private static func heading(_ out: inout EngineLines, _ heading: String?) {
    guard let heading else { return }
    out.add(["", "    // MARK: \(heading, in: .comment(.swift))", ""])
  }

  /// `FontToken` and `FontFamilyToken`, in an extension of the theme.
  private static func fontTypes(_ out: inout EngineLines, _ prose: EngineProse, theme: String) {
    let declaration: SourceLine = "extension \(theme) {"
    let structLine: SourceLine = "public struct FontToken {"
    out.keep(prose.block(declaration.text, next: structLine.text))
    out.add([
      declaration,
      "  " + structLine,
      "    public let family: FontFamilyToken",
      "    public let weight: Int",
      "    public let size: CGFloat",
      "    public let lineHeight: CGFloat",
      "    public let trackingEm: CGFloat",
      "    public let opticalSize: CGFloat?",
      "    public let softness: CGFloat?",
      "    public let width: CGFloat?",
      "    public let textStyle: UIFont.TextStyle",
      "  }",
      "",
    ])
    let family: SourceLine = "public enum FontFamilyToken {"
    out.keep(prose.block(family.text))
    out.add(["  " + family, "    case serif", "    case sans", "    case mono", "  }", "}", ""])
  }

  /// A noted colour's note after a blank line, its `case` and its value, on
  /// one line when that fits 100 columns, else one appearance a line.
  private static func colorEntry(_ out: inout EngineLines, _ token: ColorToken) {
    if let note = token.note {
      out.blank()
      out.comment(note, prefix: "    // ", in: .swift)
    }
    out.add("    case .\(token.name):")
    switch token.values {
    case .single(let value):
      out.add("      return ColorSet(.static(\(color(value))))")
    case .lightDark(let light, let dark):
      let line: SourceLine = "      return ColorSet(.auto(light: \(color(light)), dark: \(color(dark))))"
      if line.text.count <= 100 {
        out.add(line)
      } else {
        out.add(["      return ColorSet(.auto(", "        light: \(color(light)),", "        dark: \(color(dark))))"])
      }
    }
  }

  /// A type token after a blank line: its note, `case`, and `FontToken(...)` an argument a line.
  private static func fontEntry(_ out: inout EngineLines, _ token: FontToken) {
    out.blank()
    if let note = token.note { out.comment(note, prefix: "    // ", in: .swift) }
    let number = SwiftEmitter.swiftNumber
    out.add([
      "    case .\(token.name):",
      "      return FontToken(",
      "        family: .\(token.family.rawValue),",
      "        weight: \(token.weight),",
      "        size: \(number(token.size)),",
      "        lineHeight: \(number(token.lineHeight)),",
      "        trackingEm: \(number(token.tracking)),",
      "        opticalSize: \(token.opticalSize.map(number) ?? "nil"),",
      "        softness: \(token.softness.map(number) ?? "nil"),",
      "        width: \(token.width.map(number) ?? "nil"),",
      "        textStyle: .\(token.textStyle ?? "body"))",
    ])
  }

  /// A gradient after a blank line: its note, `case`, and its stops, one a line.
  private static func gradientEntry(_ out: inout EngineLines, _ token: GradientToken) {
    out.blank()
    if let note = token.note { out.comment(note, prefix: "    // ", in: .swift) }
    out.add("    case .\(token.name):")
    func stops(_ stops: [RGB], indent: String) -> [SourceLine] {
      stops.map { "\(indent)Color(uiColor: tokenColor(0x\($0.hex)))," }
    }
    switch token.stops {
    case .single(let list):
      out.add("      return GradientSet(.static(Gradient(colors: [")
      out.add(stops(list, indent: "        "))
      out.add("      ])))")
    case .lightDark(let light, let dark):
      out.add(["      return GradientSet(.auto(", "        light: Gradient(colors: ["])
      out.add(stops(light, indent: "          "))
      out.add(["        ]),", "        dark: Gradient(colors: ["])
      out.add(stops(dark, indent: "          "))
      out.add("        ])))")
    }
  }

  /// `tokenColor(0x1A1A1A)`, or with `alpha:` when the alpha is not 1.
  static func color(_ value: ColorValue) -> String {
    guard let alpha = SwiftEmitter.writtenAlpha(value) else { return "tokenColor(0x\(value.rgb.hex))" }
    return "tokenColor(0x\(value.rgb.hex), alpha: \(SwiftEmitter.swiftNumber(alpha)))"
  }
}
