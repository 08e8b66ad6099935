@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Testing

/// A config with four colour tokens, one type token and the given `contrast:` and `themes:` lines
/// (each section starts on the line `ThemeConfigText.sectionLine` names).
enum ThemeConfigText {
  static let head = """
    version: 1
    kotlin:
      output: kmp
      package: dev.example
      engine: dev.engine
      palette: MainPalette
    colors:
      - tokens:
          - {name: page, light: "#FFFFFF", dark: "#000000"}
          - {name: card, light: "#EEEEEE", dark: "#111111"}
          - {name: ink, light: "#000000", dark: "#FFFFFF"}
          - {name: hint, light: "#666666", dark: "#999999"}
    fonts:
      - tokens:
          - {name: body, family: sans, weight: 400, size: 15, lineHeight: 20}

    """
  /// The first line after `head`.
  static let sectionLine = 16

  static let contrast = """
    contrast:
      labels: [ink, hint]
      surfaces: [page, card]
    """

  static func text(_ sections: String...) -> String { head + sections.joined(separator: "\n") + "\n" }

  /// Two themes after `contrast` (lines sectionLine to +2): `level:` at +7, the map's lines from +9.
  static func themes(map: [String], level: String = "AAA") -> String {
    """
    themes:
      - name: main
        level: AA
      - name: strong
        level: \(level)
        map:
    """ + "\n" + map.map { "      " + $0 }.joined(separator: "\n")
  }

  static func errors(_ text: String) -> [Diagnostic] {
    do {
      _ = try TokenConfigLoader.parse(text, path: "parity/design-tokens.yaml")
      return []
    } catch {
      return error.diagnostics
    }
  }
}

@Suite("theme-test: the contrast and themes config")
struct ThemeConfigTests {
  typealias T = ThemeConfigText

  /// A complete map loads, in the order written; the unmapped theme reads every token as itself.
  @Test func completeMapLoads() throws {
    let text = T.text(T.contrast, T.themes(map: ["page: [page, card]", "ink: [ink, hint]"]))
    let config = try TokenConfigLoader.parse(text, path: "parity/design-tokens.yaml")
    #expect(config.contrast == ContrastSpec(labels: ["ink", "hint"], surfaces: ["page", "card"], backdrop: "page"))
    #expect(config.themes.map(\.name) == ["main", "strong"])
    #expect(config.themes.map(\.level) == [.aa, .aaa])
    let strong = config.themes[1]
    #expect(strong.map == [ThemeMapEntry(target: "page", sources: ["page", "card"]), ThemeMapEntry(target: "ink", sources: ["ink", "hint"])])
    #expect(strong.source(of: "hint") == "ink")
    #expect(strong.source(of: "card") == "page")
    #expect(config.themes[0].source(of: "hint") == "hint")
    #expect(config.mappedThemes.map(\.name) == ["strong"])
  }

  /// A token left out of the map is an error naming it, at the map.
  @Test func tokenLeftOutOfTheMap() {
    let errors = T.errors(T.text(T.contrast, T.themes(map: ["page: [page, card]", "ink: [ink]"])))
    #expect(errors.count == 1)
    #expect(errors.first?.message.contains("colour token 'hint' is left out of 'map'") == true, "\(errors)")
    #expect(errors.first?.message.hasPrefix("theme 'strong':") == true)
    #expect(errors.first?.location?.line == T.sectionLine + 9)
  }

  /// A token placed twice names it, both targets, and the line of its first place.
  @Test func tokenPlacedTwice() {
    let errors = T.errors(T.text(T.contrast, T.themes(map: ["page: [page, card]", "ink: [ink, hint, card]"])))
    #expect(errors.count == 1)
    let error = errors.first
    #expect(error?.message.contains("colour token 'card' is placed twice in 'map' (onto 'page' at \(T.sectionLine + 9):") == true, "\(errors)")
    #expect(error?.message.contains("and onto 'ink'") == true)
    #expect(error?.location?.line == T.sectionLine + 10)
    #expect(error?.location?.column == 24)
  }

  /// Unknown names get a suggestion; a target named twice and a non-list are refused.
  @Test func unknownTargetsAndSources() {
    let errors = T.errors(T.text(T.contrast, T.themes(map: ["page: [page, card]", "inc: [ink, hnt]"])))
    let messages = errors.map(\.message)
    #expect(messages.contains { $0.contains("maps onto 'inc', which is not a colour token of the main palette; did you mean 'ink'?") }, "\(messages)")
    #expect(messages.contains { $0.contains("places 'hnt', which is not a colour token; did you mean 'hint'?") }, "\(messages)")
    #expect(messages.contains { $0.contains("'hint' is left out") })
    #expect(errors.allSatisfy { $0.location != nil })

    let notList = T.errors(T.text(T.contrast, T.themes(map: ["page: [page, card]", "ink: {a: b}"])))
    #expect(notList.contains { $0.message.contains("'map.ink' must be a list of the colour tokens that read 'ink'") }, "\(notList)")
  }

  /// The level is AA or AAA; anything else names the theme and the value.
  @Test func levelMustBeAAOrAAA() {
    let errors = T.errors(T.text(T.contrast, T.themes(map: ["page: [page, card]", "ink: [ink, hint]"], level: "AAAA")))
    #expect(errors.count == 1)
    let message = errors.first?.message ?? ""
    #expect(message.hasPrefix("theme 'strong': 'level' must be AA or AAA, got ") && message.contains("AAAA"), "\(errors)")
    #expect(errors.first?.location?.line == T.sectionLine + 7)
  }

  /// `contrast:` names declared colour tokens, a type token as a pair's font, and an opaque backdrop.
  @Test func contrastSectionErrors() {
    let unknownLabel = T.errors(T.text("contrast:\n  labels: [ink, hnt]\n  surfaces: [page]"))
    #expect(unknownLabel.map(\.message) == ["contrast: 'labels' names 'hnt', which is not a colour token; did you mean 'hint'?"])
    #expect(unknownLabel.first?.location?.line == T.sectionLine + 1)
    #expect(unknownLabel.first?.location?.column == 17)

    let missing = T.errors(T.text("contrast:\n  labels: [ink]"))
    #expect(missing.map(\.message) == ["contrast: missing 'surfaces' (a list of the colour tokens text sits on)"])

    let twice = T.errors(T.text("contrast:\n  labels: [ink, ink]\n  surfaces: [page]"))
    #expect(twice.map(\.message) == ["contrast: 'labels' lists colour token 'ink' twice"])

    let font = T.errors(T.text("contrast:\n  labels: [ink]\n  surfaces: [page]\n  pairs:\n    - {label: hint, surface: card, font: bdy}"))
    #expect(font.count == 1)
    #expect(font.first?.message.contains("'font' must name a type token") == true && font.first?.message.contains("did you mean 'body'?") == true, "\(font)")

    let unknownKey = T.errors(T.text("contrast:\n  labels: [ink]\n  surfaces: [page]\n  backdorp: page"))
    #expect(unknownKey.first?.message.contains("backdorp") == true && unknownKey.first?.message.contains("backdrop") == true, "\(unknownKey)")
  }

  /// The backdrop lies beneath every translucent surface, so it must itself be opaque, also through a theme's map.
  @Test func translucentBackdropIsRefused() {
    let config = T.head.replacingOccurrences(of: "{name: card, light: \"#EEEEEE\",", with: "{name: card, light: \"#EEEEEE\", lightAlpha: 0.5,")
    let direct = T.errors(config + "contrast:\n  labels: [ink]\n  surfaces: [page, card]\n  backdrop: card\n")
    #expect(direct.count == 1)
    #expect(direct.first?.message.contains("the backdrop 'card' is translucent in the light appearance") == true, "\(direct)")

    let mapped = T.errors(config + T.contrast + "\n" + T.themes(map: ["card: [page, card]", "ink: [ink, hint]"]) + "\n")
    #expect(mapped.count == 1)
    #expect(mapped.first?.message.contains("the backdrop 'page' reads 'card', which is translucent") == true, "\(mapped)")
  }
}
