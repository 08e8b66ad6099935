import DuetModel
import DuetSupport

/// The `spacing:` and `radius:` scales as constants in both languages, in
/// every style: a step is used by name, never as a number, so a change of
/// scale is one edit in the config.
enum ScaleEmitter {
  /// Which scale a file holds: its type name and the sentence that opens its doc.
  enum Scale: String, Sendable, CaseIterable {
    case spacing, radius

    var typeName: String { self == .spacing ? "Spacing" : "Radius" }

    var summary: String {
      self == .spacing
        ? "The spacing scale: gaps and padding, by step."
        : "The corner radius scale, by step."
    }

    func tokens(_ config: TokenConfig) -> [ScaleToken] { self == .spacing ? config.spacing : config.radius }
  }

  /// `public enum Spacing { public static let x1: CGFloat = 4 }`: points, which
  /// SwiftUI and UIKit measure in; Foundation gives `CGFloat` on every platform.
  static func swift(_ config: TokenConfig, scale: Scale) -> String {
    var out = SourceText()
    out.add(contentsOf: generatedBanner(config, .swift))
    out.blank()
    out.add("import Foundation")
    out.blank()
    out.add("/// \(scale.summary) In points.")
    out.add("public enum \(scale.typeName) {")
    for (index, token) in scale.tokens(config).enumerated() {
      if index > 0 && token.doc != nil { out.blank() }
      if let doc = token.doc { out.comment(doc, prefix: "  /// ", in: .swift) }
      out.add("public static let \(token.name): CGFloat = \(plainNumber(token.value))", indent: 1)
    }
    out.add("}")
    return out.text
  }

  /// `object Spacing`: `Dp` values in the Compose style, plain `Float` dp in the
  /// engine style, whose engine has no unit type to give them.
  static func kotlin(_ config: TokenConfig, scale: Scale, target: KotlinTarget) -> String {
    let compose = target.style == .compose
    var out = KotlinEmitter.opening(
      config, target: target, imports: compose ? ["androidx.compose.ui.unit.Dp", "androidx.compose.ui.unit.dp"] : [])
    out.add("/** \(scale.summary) In dp. */")
    out.add("object \(scale.typeName) {")
    for (index, token) in scale.tokens(config).enumerated() {
      if index > 0 && token.doc != nil { out.blank() }
      if let doc = token.doc { KotlinEmitter.kdoc(&out, doc, indent: 1) }
      let number = plainNumber(token.value)
      out.add(compose ? "val \(token.name): Dp = \(number).dp" : "const val \(token.name): Float = \(number)f", indent: 1)
    }
    out.add("}")
    return out.text
  }
}

/// `4` for a whole number, `4.5` otherwise: a literal both languages read as
/// the number written, in `CGFloat`, `.dp`, `.sp` and `f` positions alike.
func plainNumber(_ value: Double) -> String {
  if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
  return "\(value)"
}
