import DuetModel
import DuetSupport

/// The generated half of a mapped theme: the exhaustive mapping of every colour
/// token onto a main-palette token, in the tutorial's shapes, so it is written
/// once in the config and never kept by hand in two languages.
enum ThemeMappingEmitter {
  /// `SemanticColor+HighContrast.swift` for a theme named `highContrast`.
  static func swiftFileName(_ theme: ThemeSpec) -> String { "\(TokenFileNames.color)+\(theme.typeStem).swift" }

  /// `HighContrastSource.kt` for a theme named `highContrast`.
  static func kotlinFileName(_ theme: ThemeSpec) -> String { "\(theme.typeStem)Source.kt" }

  /// `extension SemanticColor { var highContrastSource: SemanticColor }`, one exhaustive `switch`.
  static func swift(_ config: TokenConfig, theme: ThemeSpec, target: SwiftTarget) -> String {
    var out = SwiftEmitter.opening(config, target: target)
    out.add("extension \(TokenFileNames.color) {")
    out.add("/// The main-palette entry a token reads in the \(theme.spokenName) theme.", indent: 1)
    out.add("var \(theme.sourceProperty): \(TokenFileNames.color) {", indent: 1)
    out.add("switch self {", indent: 2)
    for entry in theme.map ?? [] where !entry.sources.isEmpty {
      out.add(contentsOf: caseLines(entry.sources.map { ".\($0)" }))
      out.add("return .\(entry.target)", indent: 3)
    }
    out.add("}", indent: 2)
    out.add("}", indent: 1)
    out.add("}")
    out.add("#endif")
    return out.text
  }

  /// `case .a, .b, .c:` on one line while it fits 100 columns, else wrapped
  /// with each continuation line aligned under the first pattern, so it never
  /// reads as the `return` below it. The patterns are token names the config
  /// check passed, so escaping them as code leaves them as they are.
  static func caseLines(_ patterns: [String]) -> [SourceLine] {
    caseLayout(patterns).map { SourceLine(escaping: $0) }
  }

  private static func caseLayout(_ patterns: [String]) -> [String] {
    let single = "    case " + patterns.joined(separator: ", ") + ":"
    if single.count <= KotlinEmitter.lineLimit { return [single] }
    var lines: [String] = []
    var line = "    case "
    var first = true
    for (index, pattern) in patterns.enumerated() {
      let piece = pattern + (index == patterns.count - 1 ? ":" : ",")
      if first {
        line += piece
        first = false
      } else if line.count + 1 + piece.count <= KotlinEmitter.lineLimit {
        line += " " + piece
      } else {
        lines.append(line)
        line = String(repeating: " ", count: "    case ".count) + piece
      }
    }
    lines.append(line)
    return lines
  }

  /// `internal val SemanticColor.highContrastSource: SemanticColor`, one exhaustive `when`.
  static func kotlin(_ config: TokenConfig, theme: ThemeSpec, target: KotlinTarget) -> String {
    let type = TokenFileNames.color
    var out = SourceText()
    out.add(contentsOf: generatedBanner(config, .kotlin))
    out.blank()
    out.add("package \(target.package)")
    out.blank()
    out.add("internal val \(type).\(theme.sourceProperty): \(type)")
    out.add("get() =", indent: 1)
    out.add("when (this) {", indent: 2)
    for entry in theme.map ?? [] where !entry.sources.isEmpty {
      for (index, source) in entry.sources.enumerated() {
        if index == entry.sources.count - 1 {
          out.add("\(type).\(source) -> \(type).\(entry.target)", indent: 3)
        } else {
          out.add("\(type).\(source),", indent: 3)
        }
      }
    }
    out.add("}", indent: 2)
    return out.text
  }
}
