import Foundation
import DuetTokens
import DuetSupport

/// A starting `parity/theme-test.yaml` for a token config that has no theme
/// test yet: the Duet engine rejects `contrast:` and `themes:` in the config, so
/// a Duet tree has none until someone writes one, and until then `theme-test`
/// has nothing to run. `duet init` writes this one; it says in comments how it
/// guessed, so a team corrects the guess instead of starting from nothing.
///
/// The guess: a colour token is a label when its name (or else its group's
/// heading) speaks of text (`label`, `text`, `ink`, `foreground`, `content`),
/// and a surface when it speaks of a ground (`surface`, `background`, `page`,
/// `canvas`, `fill`). The main theme must reach AA. When the tree's Swift or
/// Kotlin sources name a high-contrast theme, a `highContrast` theme at AAA maps
/// every surface onto the first one and every other token onto the first label,
/// as the Duet tutorial's high-contrast theme does.
package enum ThemeTestScaffold {
  package struct Scaffold: Sendable, Equatable {
    /// Where it goes, relative to the root (beside the config).
    package var path: String
    package var text: String
    package var labels: [String]
    package var surfaces: [String]
    package var highContrast: Bool
  }

  /// Why no scaffold is written, for `duet init` to say.
  package enum Skip: Error, Equatable, Sendable {
    /// The config already has a theme test (in itself or beside it).
    case present(String)
    /// No label or no surface could be told from the token names.
    case nothingToPair(String)
  }

  static let labelWords = ["label", "text", "ink", "foreground", "content"]
  static let surfaceWords = ["surface", "background", "page", "canvas", "fill"]

  /// The scaffold for the config at `configPath`, or why there is none; nil
  /// when the tree has no readable config.
  package static func make(root: URL, configPath: String = TokenConfig.defaultPath) -> Result<Scaffold, Skip>? {
    let url = root.appendingPathComponent(configPath)
    // Through the path guard: a config that is a link out of the tree is not read.
    guard let data = (try? PathGuard.read(configPath, in: root)) ?? nil, let node = try? YAMLParser.parse(data, file: configPath) else { return nil }
    let beside = ThemeTestFile.beside(configURL: url, configPath: configPath)
    if node["contrast"] != nil || node["themes"] != nil { return .failure(.present(configPath)) }
    if FileManager.default.fileExists(atPath: beside.url.path) { return .failure(.present(beside.path)) }
    let tokens = colourTokens(node)
    let labels = tokens.filter { role(of: $0) == .label }.map(\.name)
    let surfaces = tokens.filter { role(of: $0) == .surface }.map(\.name)
    guard !labels.isEmpty, !surfaces.isEmpty else {
      return .failure(.nothingToPair("no colour token of \(configPath) reads as a \(labels.isEmpty ? "label (text, ink, foreground)" : "surface (background, page, canvas)")"))
    }
    let highContrast = namesHighContrast(root: root)
    let text = render(tokens: tokens.map(\.name), labels: labels, surfaces: surfaces, highContrast: highContrast)
    return .success(Scaffold(path: beside.path, text: text, labels: labels, surfaces: surfaces, highContrast: highContrast))
  }

  struct Token {
    var name: String
    var group: String
  }

  enum Role { case label, surface, other }

  /// Every colour token in declaration order, with its group's heading; names
  /// that are not plain identifiers are left out (the config check reports them).
  static func colourTokens(_ node: YAMLNode) -> [Token] {
    var tokens: [Token] = []
    for group in node["colors"]?.sequence ?? [] {
      let heading = group["group"]?.scalar ?? ""
      for token in group["tokens"]?.sequence ?? [] {
        guard let name = token["name"]?.scalar, !name.isEmpty,
              name.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else { continue }
        tokens.append(Token(name: name, group: heading))
      }
    }
    return tokens
  }

  static func role(of token: Token) -> Role {
    let name = token.name.lowercased(), group = token.group.lowercased()
    if labelWords.contains(where: name.contains) { return .label }
    if surfaceWords.contains(where: name.contains) { return .surface }
    if labelWords.contains(where: group.contains) { return .label }
    if surfaceWords.contains(where: group.contains) { return .surface }
    return .other
  }

  /// Whether a Swift or Kotlin source of the tree (outside build folders) names a high-contrast theme.
  static func namesHighContrast(root: URL) -> Bool {
    for pattern in ["**/*.swift", "**/*.kt"] {
      for path in Glob(pattern).expand(in: root, kind: .files).prefix(5000) {
        guard let data = (try? PathGuard.read(path, in: root)) ?? nil, let text = String(data: data, encoding: .utf8) else { continue }
        if text.range(of: "highcontrast", options: .caseInsensitive) != nil { return true }
      }
    }
    return false
  }

  static func render(tokens: [String], labels: [String], surfaces: [String], highContrast: Bool) -> String {
    var text = """
      # The theme test of the token config beside this file, started by `duet init`.
      # `duet theme-test` (and the theme-test lane) checks every label on every
      # surface, in light and dark, in every theme below (docs/theme-tests.md).
      # How duet guessed, so you can correct it: a colour token is a label when its
      # name or group speaks of text (label, text, ink, foreground, content) and a
      # surface when it speaks of a ground (surface, background, page, canvas, fill).
      version: 1

      contrast:
        labels: \(YAMLText.list(labels))
        surfaces: \(YAMLText.list(surfaces))

      themes:
        - name: main
          level: AA

      """
    guard highContrast else { return text }
    let others = tokens.filter { !surfaces.contains($0) }
    text += """
        # The tree names a high-contrast theme. As in the Duet tutorial, every
        # surface reads the first surface and every other token the first label;
        # if your mapping differs, say so here (every colour token exactly once).
        - name: highContrast
          level: AAA
          map:
            \(YAMLText.scalar(surfaces[0])): \(YAMLText.list(surfaces))
            \(YAMLText.scalar(labels[0])): \(YAMLText.list(others))

      """
    return text
  }
}
