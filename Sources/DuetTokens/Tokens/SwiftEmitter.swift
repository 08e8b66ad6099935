import DuetModel
import DuetSupport

/// The Swift side of the generator: pure functions from the checked config to
/// the text of each file, in the shapes docs/design-tokens.md shows. Every file sits inside
/// `#if os(iOS)` because the engine is UIKit-backed.
enum SwiftEmitter {
  /// `public enum SemanticColor: ColorAssetable`, one case per colour token.
  static func colorVocabulary(_ config: TokenConfig, target: SwiftTarget) -> String {
    vocabulary(
      config, target: target, type: TokenFileNames.color, conformance: "ColorAssetable",
      groups: config.colorGroups.map { ($0.heading, $0.tokens.map { ($0.name, $0.doc) }) })
  }

  /// `public enum SemanticFont: FontAssetable`, one case per type token.
  static func fontVocabulary(_ config: TokenConfig, target: SwiftTarget) -> String {
    vocabulary(
      config, target: target, type: TokenFileNames.font, conformance: "FontAssetable",
      groups: config.fontGroups.map { ($0.heading, $0.tokens.map { ($0.name, $0.doc) }) })
  }

  /// `public enum SemanticGradient: GradientAssetable`; gradients have no groups.
  static func gradientVocabulary(_ config: TokenConfig, target: SwiftTarget) -> String {
    vocabulary(
      config, target: target, type: TokenFileNames.gradient, conformance: "GradientAssetable",
      groups: [(nil, config.gradients.map { ($0.name, $0.doc) })])
  }

  static func vocabulary(
    _ config: TokenConfig, target: SwiftTarget, type: String, conformance: String,
    groups: [(heading: String?, tokens: [(name: String, doc: String?)])]
  ) -> String {
    var out = opening(config, target: target)
    out.add("public enum \(type): \(conformance) {")
    for group in groups {
      if let heading = group.heading {
        out.blank()
        out.add("// MARK: - \(heading, in: .comment(.swift))", indent: 1)
      }
      for token in group.tokens {
        out.blank()
        if let doc = token.doc { out.comment(doc, prefix: "  /// ", in: .swift) }
        out.line(indent: 1) { $0.write("case "); $0.write(code: token.name) }
      }
    }
    out.add("}")
    out.add("#endif")
    return out.text
  }

  /// `<theme>Palette.swift`: the theme's value tables for every vocabulary and
  /// the file-private `tokenColor` they are written in.
  static func palette(_ config: TokenConfig, target: SwiftTarget) -> String {
    let theme = target.theme
    var out = SourceText()
    out.add(contentsOf: generatedBanner(config, .swift))
    out.blank()
    out.add("#if os(iOS)")
    // The engine's order: UIKit, SwiftUI (for `Gradient`), then the engine.
    out.add("import UIKit")
    if !config.gradients.isEmpty { out.add("import SwiftUI") }
    out.add("import \(target.engine)")
    out.blank()
    lookup(&out, theme: theme, kind: "Color", vocabulary: TokenFileNames.color, method: "colorSet", result: "ColorSet",
           groups: config.colorGroups.map { ($0.heading, $0.tokens) }, entry: colorEntry)
    fontTokenTypes(&out, theme: theme)
    lookup(&out, theme: theme, kind: "Font", vocabulary: TokenFileNames.font, method: "fontToken", result: "FontToken",
           groups: config.fontGroups.map { ($0.heading, $0.tokens) }, entry: fontEntry)
    if !config.gradients.isEmpty {
      lookup(&out, theme: theme, kind: "Gradient", vocabulary: TokenFileNames.gradient, method: "gradientSet", result: "GradientSet",
             groups: [(nil, config.gradients)], entry: gradientEntry)
    }
    tokenColorFunction(&out)
    return out.text
  }

  /// One of the palette's lookups, in an extension of its own:
  /// `public func colorSet(for asset: _ColorAsset) -> ColorSet { switch asset { ... } }`,
  /// the same for fonts and gradients, one entry per token.
  private static func lookup<Token>(
    _ out: inout SourceText, theme: String, kind: String, vocabulary: String, method: String, result: String,
    groups: [(heading: String?, tokens: [Token])], entry: (inout SourceText, Token) -> Void
  ) {
    out.add("extension \(theme) {")
    out.add("public typealias _\(kind)Asset = \(vocabulary)", indent: 1)
    out.blank()
    out.add("public func \(method)(for asset: _\(kind)Asset) -> \(result) {", indent: 1)
    out.add("switch asset {", indent: 2)
    table(&out, groups: groups, entry: entry)
    out.add("}", indent: 2)
    out.add("}", indent: 1)
    out.add("}")
    out.blank()
  }

  /// The type a font entry is written in, and its family, in their own
  /// extension: app code names them `MainTheme.FontToken` and
  /// `MainTheme.FontFamilyToken`, as it does against the engine's files.
  private static func fontTokenTypes(_ out: inout SourceText, theme: String) {
    out.add(contentsOf: [
      "extension \(theme) {",
      "  /// A type token as the config states it; the theme's `fontSet(for:)`, which",
      "  /// the app writes, turns it into a face.",
      "  public struct FontToken {",
      "    public let family: FontFamilyToken",
      "    /// The CSS-scale weight, 100 to 900.",
      "    public let weight: Int",
      "    public let size: CGFloat",
      "    public let lineHeight: CGFloat",
      "    /// Tracking as a fraction of the em.",
      "    public let trackingEm: CGFloat",
      "    /// The variable-font axes; nil where the config leaves an axis alone.",
      "    public let opticalSize: CGFloat?",
      "    public let softness: CGFloat?",
      "    public let width: CGFloat?",
      "    /// The Dynamic Type style the face scales against.",
      "    public let textStyle: UIFont.TextStyle",
      "  }",
      "",
      "  /// The config's three families; the app picks a face for each.",
      "  public enum FontFamilyToken {",
      "    case serif",
      "    case sans",
      "    case mono",
      "  }",
      "}",
      "",
    ])
  }

  /// One type token's `case` and its `return FontToken(...)`, an argument a line.
  private static func fontEntry(_ out: inout SourceText, _ token: FontToken) {
    caseLines(&out, token.name, note: token.note)
    out.add("return FontToken(", indent: 3)
    let arguments: [SourceLine] = [
      "family: .\(token.family.rawValue)",
      "weight: \(token.weight)",
      "size: \(swiftNumber(token.size))",
      "lineHeight: \(swiftNumber(token.lineHeight))",
      "trackingEm: \(swiftNumber(token.tracking))",
      "opticalSize: \(token.opticalSize.map(swiftNumber) ?? "nil")",
      "softness: \(token.softness.map(swiftNumber) ?? "nil")",
      "width: \(token.width.map(swiftNumber) ?? "nil")",
      "textStyle: .\(token.textStyle ?? "body"))",
    ]
    for (index, argument) in arguments.enumerated() {
      out.add(argument + (index == arguments.count - 1 ? "" : ","), indent: 4)
    }
  }

  /// One gradient's `case` and its `return GradientSet(...)`, a stop a line.
  private static func gradientEntry(_ out: inout SourceText, _ token: GradientToken) {
    caseLines(&out, token.name, note: token.note)
    switch token.stops {
    case .single(let stops):
      out.add("return GradientSet(.static(Gradient(colors: [", indent: 3)
      for stop in stops { out.add("Color(uiColor: tokenColor(0x\(stop.hex))),", indent: 4) }
      out.add("])))", indent: 3)
    case .lightDark(let light, let dark):
      out.add("return GradientSet(.auto(", indent: 3)
      out.add("light: Gradient(colors: [", indent: 4)
      for stop in light { out.add("Color(uiColor: tokenColor(0x\(stop.hex))),", indent: 5) }
      out.add("]),", indent: 4)
      out.add("dark: Gradient(colors: [", indent: 4)
      for stop in dark { out.add("Color(uiColor: tokenColor(0x\(stop.hex))),", indent: 5) }
      out.add("])))", indent: 4)
    }
  }

  /// The banner, the iOS guard and the engine's import a file of the engine's
  /// vocabulary or of a theme's mapping opens with.
  static func opening(_ config: TokenConfig, target: SwiftTarget) -> SourceText {
    var out = SourceText()
    out.add(contentsOf: generatedBanner(config, .swift))
    out.blank()
    out.add("#if os(iOS)")
    out.add("import \(target.engine)")
    out.blank()
    return out
  }

  /// The file-private `tokenColor` the tables are written in, and the file's end.
  private static func tokenColorFunction(_ out: inout SourceText) {
    out.add(contentsOf: [
      "/// A colour from the config's `0xRRGGBB` and alpha, so the table needs nothing",
      "/// from the app.",
    ] + tokenColor + ["#endif"])
  }

  /// `tokenColor`: a colour from `0xRRGGBB` and alpha, the one function a
  /// palette (ours or the engine's layout, `EngineSwiftLayout`) needs beside its tables.
  static let tokenColor: [SourceLine] = [
    "private func tokenColor(_ rgb: UInt32, alpha: CGFloat = 1) -> UIColor {",
    "  UIColor(",
    "    red: CGFloat((rgb >> 16) & 0xff) / 255.0,",
    "    green: CGFloat((rgb >> 8) & 0xff) / 255.0,",
    "    blue: CGFloat(rgb & 0xff) / 255.0,",
    "    alpha: alpha)",
    "}",
  ]

  /// The cases of one exhaustive `switch`, `// MARK: <group>` before each headed group.
  static func table<Token>(
    _ out: inout SourceText, groups: [(heading: String?, tokens: [Token])],
    entry: (inout SourceText, Token) -> Void
  ) {
    var first = true
    for group in groups {
      if let heading = group.heading {
        if !first { out.blank() }
        out.add("// MARK: \(heading, in: .comment(.swift))", indent: 2)
        out.blank()
      } else if !first {
        out.blank()
      }
      first = false
      for token in group.tokens { entry(&out, token) }
    }
  }

  /// One colour's `case` and its `return ColorSet(...)`, written in place.
  static func colorEntry(_ out: inout SourceText, _ token: ColorToken) {
    caseLines(&out, token.name, note: token.note)
    switch token.values {
    case .single(let value):
      out.line(indent: 3) { $0.write("return ColorSet(.static("); colorCall(value, into: &$0); $0.write("))") }
    case .lightDark(let light, let dark) where writtenAlpha(light) == nil && writtenAlpha(dark) == nil:
      out.line(indent: 3) {
        $0.write("return ColorSet(.auto(light: ")
        colorCall(light, into: &$0)
        $0.write(", dark: ")
        colorCall(dark, into: &$0)
        $0.write("))")
      }
    case .lightDark(let light, let dark):
      out.add("return ColorSet(.auto(", indent: 3)
      out.line(indent: 4) { $0.write("light: "); colorCall(light, into: &$0); $0.write(",") }
      out.line(indent: 4) { $0.write("dark: "); colorCall(dark, into: &$0); $0.write("))") }
    }
  }

  /// A note as `//` lines, then `case .name:`.
  static func caseLines(_ out: inout SourceText, _ name: String, note: String?) {
    if let note { out.comment(note, prefix: "    // ", in: .swift) }
    out.line(indent: 2) { $0.write("case ."); $0.write(code: name); $0.write(":") }
  }

  /// `tokenColor(0x1A1A1A)` or `tokenColor(0x1A1A1A, alpha: 0.12)`, appended
  /// to the line `out` is writing.
  static func colorCall(_ value: ColorValue, into out: inout SourceText) {
    out.write("tokenColor(0x")
    out.writeHex(value.rgb.value, count: 6)
    if let alpha = writtenAlpha(value) {
      out.write(", alpha: ")
      out.write(code: floatLiteral(alpha))
    }
    out.write(")")
  }

  /// The alpha a Swift `tokenColor` call states: none for an opaque colour,
  /// given or not (`tokenColor`'s default is 1, and the engine omits it too).
  static func writtenAlpha(_ value: ColorValue) -> Double? {
    value.alpha == 1 ? nil : value.alpha
  }

  /// A `CGFloat` argument as the engine writes it: an integral value as an
  /// integer literal (`34`, `0`), any other as a decimal (`-0.01`).
  static func swiftNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return floatLiteral(value)
  }
}
