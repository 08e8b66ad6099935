@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing

@Suite("design tokens: generated files")
struct TokenGoldenTests {
  static let fixtures = ["full", "minimal", "kotlin-only", "swift-only", "themed", "plain"]

  /// Every file each fixture config generates matches its golden file byte for byte.
  @Test(arguments: fixtures)
  func generatedFilesMatchTheirGoldenFiles(fixture: String) throws {
    let plan = TokenPlan(try TokenFixtures.config(fixture))
    #expect(!plan.files.isEmpty)
    for file in plan.files {
      TokenGolden.check(
        file.contents, file: TokenFixtures.golden.appendingPathComponent(fixture).appendingPathComponent(file.path),
        refresh: "DUET_RECORD_GOLDEN=1 swift test --filter TokenGoldenTests")
    }
  }

  /// The full config generates the eight files of two targets with gradients, in the order the command lists them.
  @Test func fullConfigPlansEightFilesInOrder() throws {
    let plan = TokenPlan(try TokenFixtures.config("full"))
    #expect(plan.files.map(\.path) == [
      "ios/Theming/Generated/SemanticColor.swift",
      "ios/Theming/Generated/SemanticFont.swift",
      "ios/Theming/Generated/SemanticGradient.swift",
      "ios/Theming/Generated/MainThemePalette.swift",
      "kmp/theming/Generated/SemanticColor.kt",
      "kmp/theming/Generated/SemanticFont.kt",
      "kmp/theming/Generated/SemanticGradient.kt",
      "kmp/theming/Generated/MainPalette.kt",
    ])
    // Every file is declared but the other styles' and the scales', which the config does not use.
    #expect(plan.ownedButUndeclared == [
      "ios/Theming/Generated/Color+Tokens.swift", "ios/Theming/Generated/Font+Tokens.swift",
      "ios/Theming/Generated/Spacing.swift", "ios/Theming/Generated/Radius.swift",
      "kmp/theming/Generated/SemanticColors.kt", "kmp/theming/Generated/SemanticTextStyles.kt",
      "kmp/theming/Generated/Spacing.kt", "kmp/theming/Generated/Radius.kt",
    ])
  }

  /// Without gradients a target's `SemanticGradient` file is owned but not declared, so `--check` can call it orphaned.
  @Test func gradientFilesAreOwnedButUndeclaredWithoutGradients() throws {
    let plan = TokenPlan(try TokenFixtures.config("minimal"))
    #expect(plan.files.count == 6)
    #expect(plan.ownedButUndeclared.contains("ios/Generated/SemanticGradient.swift"))
    #expect(plan.ownedButUndeclared.contains("kmp/Generated/SemanticGradient.kt"))
    #expect(plan.ownedButUndeclared.count == 10)
  }

  /// Two loads of the same text give byte-identical files: generation depends on nothing but the config.
  @Test(arguments: fixtures)
  func generationIsDeterministic(fixture: String) throws {
    let first = TokenPlan(try TokenFixtures.config(fixture))
    let second = TokenPlan(try TokenFixtures.config(fixture))
    #expect(first == second)
  }

  /// The bundled example's six committed files are what its config generates now.
  @Test func foyerExampleFilesAreUpToDate() throws {
    let config = try TokenConfigLoader.load(root: TokenFixtures.foyer)
    let plan = TokenPlan(config)
    #expect(plan.files.count == 8)
    for file in plan.files {
      TokenGolden.check(
        file.contents, file: TokenFixtures.foyer.appendingPathComponent(file.path),
        refresh: "swift run duet design-tokens --root Examples/Foyer")
    }
  }

  /// The Kotlin alpha byte is fraction × 255 rounded half away from zero, decimal ties included.
  @Test(arguments: [(0.3, "4D"), (0.12, "1F"), (0.16, "29"), (0.7, "B3"), (0.5, "80"), (0.0, "00"), (1.0, "FF"), (0.1, "1A")])
  func alphaByteRoundsHalfAwayFromZero(alpha: Double, byte: String) {
    let value = ColorValue(RGB(0x1A1A1A), alpha: alpha)
    #expect(value.argbHex == byte + "1A1A1A")
  }

  /// Doc comments wrap at 80 columns and keep paragraphs, for folded and literal YAML alike.
  @Test func commentsWrapAtEightyColumnsKeepingParagraphs() {
    let folded = "First paragraph.\nSecond paragraph with " + String(repeating: "word ", count: 30)
    let lines = CommentText.lines(folded, prefix: "  /// ")
    #expect(lines[0] == "  /// First paragraph.")
    #expect(lines[1] == "  ///")
    #expect(lines.allSatisfy { $0.count <= 80 })
    #expect(lines.count > 3)
    let literal = "One paragraph\nover two lines.\n\nAnother.\n"
    #expect(CommentText.paragraphs(literal) == ["One paragraph over two lines.", "Another."])
  }

  /// A doc holding `*/` cannot end its KDoc early: its `/` is written `\u{2F}`, which reads back as the doc.
  @Test func docCannotCloseKDoc() throws {
    let config = TokenConfig(
      path: "t.yaml", kotlin: KotlinTarget(output: "k", package: "p", engine: "e", palette: "P"),
      colorGroups: [TokenGroup(heading: nil, tokens: [ColorToken(name: "ink", doc: "Ends */ here.", values: .single(ColorValue(RGB(0))))])])
    let text = KotlinEmitter.colorVocabulary(config, target: try #require(config.kotlin))
    #expect(text.contains("   * Ends *\\u{2F} here.\n"))
    #expect(!text.contains("Ends */"))
  }

  /// A Kotlin entry that would pass 100 columns puts its value on the next line; shorter ones stay on one line.
  @Test func longKotlinEntriesBreakAfterTheArrow() throws {
    let plan = TokenPlan(try TokenFixtures.config("full"))
    let palette = try #require(plan.files.first { $0.path.hasSuffix("MainPalette.kt") })
    let lines = palette.contents.split(separator: "\n").map(String.init)
    #expect(lines.allSatisfy { $0.count <= 100 })
    #expect(lines.contains("      SemanticColor.backgroundElevatedSecondaryGrouped ->"))
    #expect(lines.contains("      SemanticColor.scrim -> ColorToken.fixed(0x4D000000)"))
  }
}
