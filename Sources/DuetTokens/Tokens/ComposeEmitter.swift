import DuetModel
import DuetSupport

/// The Kotlin side for an app with no theme engine (`style: compose`): the
/// colour tokens as Compose `Color(0xAARRGGBB)` values in a light and a dark
/// object behind one interface, and the type scale as `TextStyle`s.
enum ComposeEmitter {
  static let colorFileName = "SemanticColors.kt"
  static let fontFileName = "SemanticTextStyles.kt"

  /// `interface SemanticColors`, then `object LightColors` and `object DarkColors` implementing it.
  static func colors(_ config: TokenConfig, target: KotlinTarget) -> String {
    var out = KotlinEmitter.opening(config, target: target, imports: ["androidx.compose.ui.graphics.Color"])
    out.add(contentsOf: [
      "/**",
      " * The colour tokens of one appearance: read [LightColors] or [DarkColors], for",
      " * example by `isSystemInDarkTheme()`.",
      " */",
      "interface SemanticColors {",
    ])
    sections(&out, groups: config.colorGroups.map { ($0.heading, $0.tokens) }) { out, token in
      out.blank()
      if let doc = token.doc { KotlinEmitter.kdoc(&out, doc, indent: 1) }
      out.add("val \(token.name): Color", indent: 1)
    }
    out.add("}")
    for appearance in Appearance.allCases {
      let name = appearance == .light ? "LightColors" : "DarkColors"
      out.blank()
      out.add("/** The colour tokens in the \(appearance.rawValue) appearance. */")
      out.add("object \(name) : SemanticColors {")
      sections(&out, groups: config.colorGroups.map { ($0.heading, $0.tokens) }) { out, token in
        if let note = token.note { out.comment(note, prefix: "  // ", in: .kotlin) }
        out.add("override val \(token.name) = Color(0x\(token.value(appearance).argbHex))", indent: 1)
      }
      out.add("}")
    }
    return out.text
  }

  /// `object SemanticTextStyles` with one `TextStyle` per type token, one argument a line.
  static func fonts(_ config: TokenConfig, target: KotlinTarget) -> String {
    var out = KotlinEmitter.opening(config, target: target, imports: [
      "androidx.compose.ui.text.TextStyle", "androidx.compose.ui.text.font.FontFamily",
      "androidx.compose.ui.text.font.FontWeight", "androidx.compose.ui.unit.em", "androidx.compose.ui.unit.sp",
    ])
    out.add("/** The type scale; sizes in sp, so they follow the user's font scale. */")
    out.add("object SemanticTextStyles {")
    sections(&out, groups: config.fontGroups.map { ($0.heading, $0.tokens) }) { out, token in
      out.blank()
      if let doc = token.doc { KotlinEmitter.kdoc(&out, doc, indent: 1) }
      if let note = token.note { out.comment(note, prefix: "  // ", in: .kotlin) }
      if let axes = SwiftUIEmitter.axesNote(token) {
        out.comment(axes.replacingOccurrences(of: "the system face has", with: "a TextStyle has"), prefix: "  // ", in: .kotlin)
      }
      out.add("val \(token.name) = TextStyle(", indent: 1)
      let arguments: [SourceLine] = [
        "fontFamily = FontFamily.\(familyName(token.family))",
        "fontWeight = FontWeight(\(token.weight))",
        "fontSize = \(floatLiteral(token.size)).sp",
        "lineHeight = \(floatLiteral(token.lineHeight)).sp",
        "letterSpacing = \(signed(floatLiteral(token.tracking))).em",
      ]
      for (index, argument) in arguments.enumerated() {
        out.add(argument + (index == arguments.count - 1 ? "" : ","), indent: 2)
      }
      out.add(")", indent: 1)
    }
    out.add("}")
    return out.text
  }

  /// `// <group>` before each headed group's entries.
  static func sections<Token>(
    _ out: inout SourceText, groups: [(heading: String?, tokens: [Token])], entry: (inout SourceText, Token) -> Void
  ) {
    for group in groups {
      if let heading = group.heading {
        out.blank()
        out.add("// \(heading, in: .comment(.kotlin))", indent: 1)
      }
      for token in group.tokens { entry(&out, token) }
    }
  }

  /// `(-0.01)`: a negative receiver needs brackets, or `-0.01.em` negates the unit.
  static func signed(_ literal: String) -> String { literal.hasPrefix("-") ? "(\(literal))" : literal }

  static func familyName(_ family: FontFamily) -> String {
    switch family {
    case .sans: return "SansSerif"
    case .serif: return "Serif"
    case .mono: return "Monospace"
    }
  }
}
