import DuetModel
import DuetSupport

/// The Swift side for an app with no theme engine (`style: swiftui`): colour
/// tokens as `Color` statics over a generated `Color(light:dark:)`, and a type
/// scale whose sizes follow Dynamic Type. Both files sit inside `#if os(iOS)`,
/// as the dynamic colour and the line-height measure are UIKit's.
enum SwiftUIEmitter {
  static let colorFileName = "Color+Tokens.swift"
  static let fontFileName = "Font+Tokens.swift"

  /// The colours SwiftUI's `Color` already declares: a token of the same name
  /// would make `.foregroundStyle(.primary)` ambiguous, so the loader refuses it.
  static let colorMembers: Set<String> = [
    "accentColor", "black", "blue", "brown", "clear", "cyan", "gray", "green", "indigo", "mint", "orange", "pink",
    "primary", "purple", "red", "secondary", "teal", "white", "yellow",
  ]

  /// `extension Color { public static let surface = Color(light: 0xFFFFFF, dark: 0x121212) }`.
  static func colors(_ config: TokenConfig) -> String {
    var out = opening(config)
    out.add("/// The colour tokens: each follows the appearance of the view it is drawn in.")
    out.add("extension Color {")
    statics(&out, groups: config.colorGroups.map { ($0.heading, $0.tokens) }) { token in
      (token.name, token.doc, token.note, colorCall(token.values))
    }
    out.add("}")
    out.blank()
    out.add(contentsOf: [
      "extension Color {",
      "  /// One value per appearance: a dynamic colour that UIKit resolves against the",
      "  /// trait collection of the view it is drawn in.",
      "  init(light: UInt32, lightAlpha: CGFloat = 1, dark: UInt32, darkAlpha: CGFloat = 1) {",
      "    self.init(UIColor { traits in",
      "      traits.userInterfaceStyle == .dark",
      "        ? UIColor(tokenRGB: dark, alpha: darkAlpha)",
      "        : UIColor(tokenRGB: light, alpha: lightAlpha)",
      "    })",
      "  }",
      "",
      "  /// One value in every appearance.",
      "  init(hex: UInt32, alpha: CGFloat = 1) {",
      "    self.init(UIColor(tokenRGB: hex, alpha: alpha))",
      "  }",
      "}",
      "",
      "extension UIColor {",
      "  /// A colour from the config's `0xRRGGBB` and alpha.",
      "  fileprivate convenience init(tokenRGB rgb: UInt32, alpha: CGFloat) {",
      "    self.init(",
      "      red: CGFloat((rgb >> 16) & 0xFF) / 255,",
      "      green: CGFloat((rgb >> 8) & 0xFF) / 255,",
      "      blue: CGFloat(rgb & 0xFF) / 255,",
      "      alpha: alpha)",
      "  }",
      "}",
      "#endif",
    ])
    return out.text
  }

  /// `TypeToken` statics, a `.tokenFont(_:)` modifier for them, and the modifier
  /// that scales size and line height with `@ScaledMetric(relativeTo:)`.
  static func fonts(_ config: TokenConfig) -> String {
    var out = opening(config)
    typeTokenStruct(&out, config)
    out.add("extension TypeToken {")
    statics(&out, groups: config.fontGroups.map { ($0.heading, $0.tokens) }) { token in
      (token.name, token.doc, axesNote(token).map { [token.note, $0].compactMap { $0 }.joined(separator: "\n") } ?? token.note, typeTokenCall(token))
    }
    out.add("}")
    out.blank()
    tokenFontModifier(&out)
    return out.text
  }

  /// `struct TypeToken` with its doc, which names the config's first font as
  /// its example.
  private static func typeTokenStruct(_ out: inout SourceText, _ config: TokenConfig) {
    let example = config.fonts.first?.name ?? "body"
    out.comment(
      "One step of the type scale as the config states it. `.tokenFont(.\(example))` on a view sets it, with its size and line height kept in step with Dynamic Type.",
      prefix: "/// ", in: .swift)
    out.add(contentsOf: [
      "public struct TypeToken: Sendable {",
      "  /// The size in points at the default Dynamic Type size.",
      "  public let size: CGFloat",
      "  public let weight: Font.Weight",
      "  public let design: Font.Design",
      "  /// The line height in points at the default Dynamic Type size.",
      "  public let lineHeight: CGFloat",
      "  /// Tracking as a fraction of the em.",
      "  public let trackingEm: CGFloat",
      "  /// The Dynamic Type style the size scales against.",
      "  public let textStyle: Font.TextStyle",
      "}",
      "",
    ])
  }

  /// `.tokenFont(_:)` and the view modifier that scales a token with Dynamic
  /// Type, and the file's end.
  private static func tokenFontModifier(_ out: inout SourceText) {
    out.add(contentsOf: [
      "extension View {",
      "  /// Sets `token`'s face at its size scaled with Dynamic Type, with its line",
      "  /// height and tracking.",
      "  /// (Not `font(_:)`: `.font(.title)` would mean SwiftUI's own `Font.title`.)",
      "  public func tokenFont(_ token: TypeToken) -> some View {",
      "    modifier(ScaledTypeToken(token: token))",
      "  }",
      "}",
      "",
      "/// Scales a token's size and line height against its text style, as the",
      "/// system's own text styles scale.",
      "private struct ScaledTypeToken: ViewModifier {",
      "  let token: TypeToken",
      "  @ScaledMetric private var size: CGFloat",
      "  @ScaledMetric private var lineHeight: CGFloat",
      "",
      "  init(token: TypeToken) {",
      "    self.token = token",
      "    _size = ScaledMetric(wrappedValue: token.size, relativeTo: token.textStyle)",
      "    _lineHeight = ScaledMetric(wrappedValue: token.lineHeight, relativeTo: token.textStyle)",
      "  }",
      "",
      "  func body(content: Content) -> some View {",
      "    content",
      "      .font(.system(size: size, weight: token.weight, design: token.design))",
      "      .tracking(token.trackingEm * size)",
      "      // SwiftUI sets the space between lines, not their height: add what the",
      "      // token's height has over the system face's own at this size.",
      "      .lineSpacing(max(0, lineHeight - UIFont.systemFont(ofSize: size).lineHeight))",
      "  }",
      "}",
      "#endif",
    ])
  }

  /// The banner, the iOS guard and the two imports both files open with.
  static func opening(_ config: TokenConfig) -> SourceText {
    var out = SourceText()
    out.add(contentsOf: generatedBanner(config, .swift))
    out.blank()
    out.add("#if os(iOS)")
    out.add("import SwiftUI")
    out.add("import UIKit")
    out.blank()
    return out
  }

  /// `public static let` lines with `// MARK: - <group>` sections, `doc` as
  /// `///` and `note` as `//` above each, one token per line while it fits.
  static func statics<Token>(
    _ out: inout SourceText, groups: [(heading: String?, tokens: [Token])],
    line: (Token) -> (name: String, doc: String?, note: String?, value: String)
  ) {
    for group in groups {
      if let heading = group.heading {
        out.blank()
        out.add("// MARK: - \(heading, in: .comment(.swift))", indent: 1)
      }
      for token in group.tokens {
        let entry = line(token)
        out.blank()
        if let doc = entry.doc { out.comment(doc, prefix: "  /// ", in: .swift) }
        if let note = entry.note { out.comment(note, prefix: "  // ", in: .swift) }
        let head: SourceLine = "public static let \(entry.name) = "
        let single: SourceLine = "\(head)\(entry.value)"
        if 2 + single.text.count <= KotlinEmitter.lineLimit {
          out.add(single, indent: 1)
        } else if let open = entry.value.firstIndex(of: "(") {
          // `Color(` stays on the line; its arguments go on the next, indented.
          out.add("\(head)\(String(entry.value[...open]))", indent: 1)
          out.add("\(String(entry.value[entry.value.index(after: open)...]))", indent: 2)
        } else {
          out.add(single, indent: 1)
        }
      }
    }
  }

  /// `Color(hex: 0x1A1A1A)` or `Color(light: 0x1A1A1A, lightAlpha: 0.12, dark: 0xEDEDED, darkAlpha: 0.16)`.
  static func colorCall(_ values: ColorToken.Values) -> String {
    func part(_ label: String, _ value: ColorValue) -> String {
      "\(label): 0x\(value.rgb.hex)" + (value.alpha.map { ", \(label == "hex" ? "alpha" : label + "Alpha"): \(floatLiteral($0))" } ?? "")
    }
    switch values {
    case .single(let value): return "Color(\(part("hex", value)))"
    case .lightDark(let light, let dark): return "Color(\(part("light", light)), \(part("dark", dark)))"
    }
  }

  static func typeTokenCall(_ token: FontToken) -> String {
    "TypeToken(size: \(plainNumber(token.size)), weight: .\(weightName(token.weight)), design: .\(designName(token.family)), "
      + "lineHeight: \(plainNumber(token.lineHeight)), trackingEm: \(plainNumber(token.tracking)), "
      + "textStyle: .\(textStyleName(token.textStyle ?? "body")))"
  }

  /// The variable-font axes have no place on the system face; the file says so
  /// rather than drop them unseen.
  static func axesNote(_ token: FontToken) -> String? {
    let axes = [("opticalSize", token.opticalSize), ("softness", token.softness), ("width", token.width)]
      .compactMap { name, value in value.map { "\(name) \(plainNumber($0))" } }
    guard !axes.isEmpty else { return nil }
    return "Not applied: the system face has no variable axes (\(axes.joined(separator: ", ")))."
  }

  /// The CSS weight as `Font.Weight`: 100 is `.ultraLight`, 200 `.thin`, as Apple orders them.
  static func weightName(_ weight: Int) -> String {
    switch weight {
    case 100: return "ultraLight"
    case 200: return "thin"
    case 300: return "light"
    case 500: return "medium"
    case 600: return "semibold"
    case 700: return "bold"
    case 800: return "heavy"
    case 900: return "black"
    default: return "regular"
    }
  }

  static func designName(_ family: FontFamily) -> String {
    switch family {
    case .sans: return "default"
    case .serif: return "serif"
    case .mono: return "monospaced"
    }
  }

  /// UIKit's text style names as SwiftUI's: `title1` is `.title`, `caption1` is `.caption`.
  static func textStyleName(_ uiKit: String) -> String {
    switch uiKit {
    case "title1": return "title"
    case "caption1": return "caption"
    default: return uiKit
    }
  }
}
