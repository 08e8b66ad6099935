@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing

@Suite("theme-test: every pair per theme and appearance")
struct ThemeContrastTests {
  static let foyer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/Foyer")

  func foyerText() throws -> String {
    try String(contentsOf: Self.foyer.appendingPathComponent(TokenConfig.defaultPath), encoding: .utf8)
  }

  func makeReport(_ text: String) throws -> ThemeTestReport {
    let config = try TokenConfigLoader.parse(text, path: TokenConfig.defaultPath)
    return ThemeTestReport(configPath: TokenConfig.defaultPath, results: ThemeContrast.evaluate(config))
  }

  /// The example: 3 labels × 3 surfaces (the extra locked pair repeats a grid pair) × 2 appearances × 2 themes,
  /// all passing, worst the secondary label on the locked card in the dark.
  @Test func foyerExamplePasses() throws {
    let report = try makeReport(try foyerText())
    #expect(report.results.count == 36)
    #expect(report.passed)
    let worst = try #require(report.worst)
    #expect(worst.pairName == "labelSecondary on lockedSurface")
    #expect(worst.appearance == .dark && worst.theme == "main")
    #expect(ratioText(worst.ratio) == "4.55:1")
    #expect(report.summaryLine == "duet theme-test: PASS (36 pairs, worst 4.55:1 labelSecondary on lockedSurface, dark, main)")
    // Every high-contrast pair reads the primary label on the page.
    let high = report.results.filter { $0.theme == "highContrast" }
    #expect(high.count == 18)
    #expect(high.allSatisfy { $0.labelSource == "labelPrimary" && $0.surfaceSource == "surface" && $0.required == 7 })
    #expect(report.groups.map { "\($0.theme) \($0.appearance.rawValue)" } == ["main light", "main dark", "highContrast light", "highContrast dark"])
  }

  /// The tutorial's exercise: a lighter secondary grey fails the main theme at AA, while the
  /// high-contrast theme still passes, because it reads labelPrimary for that token.
  @Test func tutorialExercise() throws {
    let text = try foyerText()
    #expect(text.contains("light: \"#6A6A6A\""))
    let report = try makeReport(text.replacingOccurrences(of: "light: \"#6A6A6A\"", with: "light: \"#8A8A8A\""))
    #expect(!report.passed)
    #expect(report.exitCode == 1)
    let short = report.shortfalls
    #expect(short.map(\.theme) == ["main", "main", "main"])
    #expect(short.allSatisfy { $0.label == "labelSecondary" && $0.appearance == .light })
    // #8A8A8A on the card #F1F1EE: 3.05:1.
    #expect(short.map(\.shortfallLine).contains("labelSecondary on cardSurface (light, main): 3.05:1 < 4.5:1 (AA)"), "\(short.map(\.shortfallLine))")
    #expect(report.results.filter { $0.theme == "highContrast" }.allSatisfy { $0.passes })
    #expect(report.summaryLine == "duet theme-test: FAIL (3 of 36 pairs short, worst 3.05:1 labelSecondary on cardSurface, light, main)")
  }

  /// A translucent surface is composited over the backdrop, and a translucent label over that;
  /// ratios checked against values worked by hand (black at 0.5 over white: 3.9767 against white).
  @Test func translucentSurfacesAndLabels() throws {
    let text = ThemeConfigText.head
      .replacingOccurrences(of: "{name: card, light: \"#EEEEEE\",", with: "{name: card, light: \"#000000\", lightAlpha: 0.5,")
      .replacingOccurrences(of: "{name: hint, light: \"#666666\",", with: "{name: hint, light: \"#000000\", lightAlpha: 0.5,")
      + "contrast:\n  labels: [page, hint]\n  surfaces: [page, card]\n"
    let report = try makeReport(text)
    let light = report.results.filter { $0.appearance == .light }
    func ratio(_ label: String, _ surface: String) -> Double? { light.first { $0.label == label && $0.surface == surface }?.ratio }
    // White text on black at 0.5 over the white page: the card is mid grey.
    #expect(abs((ratio("page", "card") ?? 0) - 3.9767) < 0.0005)
    // Black at 0.5 on the white page.
    #expect(abs((ratio("hint", "page") ?? 0) - 3.9767) < 0.0005)
    // Black at 0.5 over the mid-grey card: channel 0.25, luminance 0.0508; against 0.5 grey (0.21404): 2.6.
    let quarter = SRGBColor.linear(0.25)
    let expected = (SRGBColor.linear(0.5) + 0.05) / (quarter + 0.05)
    #expect(abs((ratio("hint", "card") ?? 0) - expected) < 1e-9)
    #expect(light.first { $0.surface == "card" }?.surfaceColor == SRGBColor(red: 0.5, green: 0.5, blue: 0.5))
  }

  /// An extra pair whose font is large text is held to the large-text threshold; a grid pair it repeats
  /// takes its font instead of being counted twice.
  @Test func extraPairsAndLargeText() throws {
    let base = ThemeConfigText.head.replacingOccurrences(of: "size: 15,", with: "size: 18,")
    let large = try makeReport(base + "contrast:\n  labels: [ink]\n  surfaces: [page]\n  pairs:\n    - {label: hint, surface: card, font: body}\n    - {label: ink, surface: page, font: body}\n")
    #expect(large.results.count == 4)
    let hint = try #require(large.results.first { $0.label == "hint" && $0.appearance == .light })
    #expect(hint.largeText && hint.required == 3)
    #expect(hint.font == "body")
    // #666666 on #EEEEEE is 4.8 (passes large AA either way); the large flag shows in the level label.
    #expect(hint.levelLabel == "AA, large text")
    let ink = try #require(large.results.first { $0.label == "ink" })
    #expect(ink.largeText)

    let small = try makeReport(ThemeConfigText.head + "contrast:\n  labels: [ink]\n  surfaces: [page]\n  pairs:\n    - {label: hint, surface: card, font: body}\n")
    #expect(small.results.allSatisfy { !$0.largeText && $0.required == 4.5 })
  }

  /// A large-text pair at 3.2:1 under AA (margin 1.07) is worse than body text at 4.9:1 (margin 1.09):
  /// the worst pair is the one closest to its own threshold.
  @Test func worstIsTheSmallestMargin() throws {
    let a = ContrastPairResult(
      theme: "main", level: .aa, appearance: .light, label: "a", surface: "s", labelSource: "a", surfaceSource: "s",
      font: "big", largeText: true, labelColor: srgb(0), surfaceColor: srgb(0), ratio: 3.2, required: 3)
    var b = a
    b.label = "b"
    b.largeText = false
    b.ratio = 4.9
    b.required = 4.5
    #expect(ThemeContrast.worst([b, a])?.label == "a")
    #expect(ThemeContrast.worst([]) == nil)
  }

  /// Without `themes:` the main palette is tested alone at AA.
  @Test func noThemesMeansMainAtAA() throws {
    let report = try makeReport(ThemeConfigText.text(ThemeConfigText.contrast))
    #expect(Set(report.results.map(\.theme)) == ["main"])
    #expect(report.results.count == 2 * 2 * 2)
    #expect(report.results.allSatisfy { $0.level == .aa })
  }
}
