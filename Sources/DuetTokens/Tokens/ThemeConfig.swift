import DuetModel
import DuetSupport

/// The `contrast:` section of the token config: which colour tokens are text
/// and which are grounds, what lies beneath a translucent ground, and any extra
/// pairs (with the type style that may make them large text).
struct ContrastSpec: Sendable, Equatable {
  var labels: [String]
  var surfaces: [String]
  /// The opaque token beneath a translucent surface; the first surface unless the config names one.
  var backdrop: String
  var pairs: [ContrastPair] = []

}

/// One extra `{label, surface, font}` pair; `font` names a type token.
struct ContrastPair: Sendable, Equatable, Hashable {
  var label: String
  var surface: String
  var font: String?
}

/// A theme under test: its name, the WCAG level it must reach and, for a theme
/// other than the main one, the mapping of every colour token onto a
/// main-palette token.
package struct ThemeSpec: Sendable, Equatable {
  var name: String
  var level: ContrastLevel
  /// Nil for a theme that reads the main palette as it is.
  var map: [ThemeMapEntry]?
  /// Whether duet generates the mapping files for a mapped theme: always in
  /// the token config, only on `output: true` in `theme-test.yaml` (where the
  /// team's own mapping source may exist already).
  var generatesMapping = true

  /// The main-palette token `token` reads in this theme.
  func source(of token: String) -> String {
    guard let map else { return token }
    return map.first { $0.sources.contains(token) }?.target ?? token
  }

  /// `highContrast` -> `HighContrast`, the stem of the generated file names.
  var typeStem: String {
    guard let first = name.first else { return name }
    return first.uppercased() + name.dropFirst()
  }

  /// `highContrast` -> `high-contrast`, as the generated doc comment says it.
  var spokenName: String {
    var words: [String] = []
    var current = ""
    for character in name {
      if character.isUppercase && !current.isEmpty {
        words.append(current)
        current = ""
      }
      current.append(Character(character.lowercased()))
    }
    if !current.isEmpty { words.append(current) }
    return words.joined(separator: "-")
  }

  /// `highContrastSource`, the property both languages declare.
  var sourceProperty: String { name + "Source" }
}

/// One line of a theme's `map`: the main-palette token and the tokens that read it, in the order written.
struct ThemeMapEntry: Sendable, Equatable {
  var target: String
  var sources: [String]
}
