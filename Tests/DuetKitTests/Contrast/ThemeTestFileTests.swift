@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing

/// The Foyer example's config split in two: the token part (the engine's grammar)
/// and the theme-test part (`contrast:` and `themes:`), as `parity/theme-test.yaml`.
enum SplitFoyerConfig {
  static func parts() throws -> (tokens: String, themeTest: String) {
    let text = try String(contentsOf: TokenFixtures.foyer.appendingPathComponent(TokenConfig.defaultPath), encoding: .utf8)
    let cut = try #require(text.range(of: "contrast:\n"))
    return (String(text[..<cut.lowerBound]), "version: 1\n" + String(text[cut.lowerBound...]))
  }

  static func tree(themeTest: String? = nil, tokensExtra: String = "") throws -> TokenTempTree {
    let (tokens, settings) = try parts()
    let tree = try TokenTempTree()
    try tree.write(tokens + tokensExtra, to: TokenConfig.defaultPath)
    try tree.write(themeTest ?? settings, to: ThemeTestFile.defaultPath)
    return tree
  }
}

@Suite("theme-test settings in parity/theme-test.yaml")
struct ThemeTestFileTests {
  /// Contrast pairs, levels and themes read from theme-test.yaml test the same as in the config,
  /// and a mapped theme there generates no mapping file unless it says `output: true`.
  @Test func settingsBesideTheConfig() throws {
    let tree = try SplitFoyerConfig.tree()
    let split = try TokenConfigLoader.load(root: tree.root)
    let whole = try TokenConfigLoader.load(root: TokenFixtures.foyer)
    #expect(split.contrast == whole.contrast)
    #expect(split.themes.map(\.name) == ["main", "highContrast"])
    #expect(split.themes.map(\.map) == whole.themes.map(\.map))
    #expect(ThemeContrast.evaluate(split) == ThemeContrast.evaluate(whole))
    #expect(split.mappedThemes.isEmpty)
    let paths = TokenPlan(split).files.map(\.path)
    #expect(paths.count == 6)
    #expect(!paths.contains { $0.contains("HighContrast") })
  }

  /// `output: true` on a mapped theme opts its mapping into generation, in both languages.
  @Test func outputOptsIn() throws {
    var (_, settings) = try SplitFoyerConfig.parts()
    settings = settings.replacingOccurrences(of: "    level: AAA\n", with: "    level: AAA\n    output: true\n")
    let tree = try SplitFoyerConfig.tree(themeTest: settings)
    let config = try TokenConfigLoader.load(root: tree.root)
    #expect(config.mappedThemes.map(\.name) == ["highContrast"])
    let paths = TokenPlan(config).files.map(\.path)
    #expect(paths.contains { $0.hasSuffix("SemanticColor+HighContrast.swift") })
    #expect(paths.contains { $0.hasSuffix("HighContrastSource.kt") })
  }

  /// A section in both files, an unknown key, a bad `output` and `output: true` without a map are
  /// errors naming theme-test.yaml's line and column.
  @Test func mistakesNameTheFile() throws {
    let (tokens, settings) = try SplitFoyerConfig.parts()
    let both = try SplitFoyerConfig.tree(tokensExtra: "contrast:\n  labels: [labelPrimary]\n  surfaces: [surface]\n")
    let bothErrors = errors { try TokenConfigLoader.load(root: both.root) }
    let contrastLine = settings.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "contrast:" }! + 1
    let configLine = tokens.split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(bothErrors == ["parity/theme-test.yaml:\(contrastLine):1: error: the theme-test settings: 'contrast' is declared here and in parity/design-tokens.yaml:\(configLine); keep it in one of the two files"])

    let unknown = try SplitFoyerConfig.tree(themeTest: "version: 1\ncontrast:\n  labels: [labelPrimary]\n  surfaces: [surface]\nlevels: AA\n")
    #expect(errors { try TokenConfigLoader.load(root: unknown.root) }.first?.hasPrefix("parity/theme-test.yaml:5:1: error: the theme-test settings: unknown key 'levels'") == true)

    let badOutput = try SplitFoyerConfig.tree(themeTest: "contrast:\n  labels: [labelPrimary]\n  surfaces: [surface]\nthemes:\n  - name: main\n    output: yes\n")
    #expect(errors { try TokenConfigLoader.load(root: badOutput.root) } == [
      "parity/theme-test.yaml:6:13: error: theme 'main': 'output' must be true (generate this theme's mapping beside the token files) or false, got \"yes\""
    ])
    let noMap = try SplitFoyerConfig.tree(themeTest: "contrast:\n  labels: [labelPrimary]\n  surfaces: [surface]\nthemes:\n  - name: main\n    output: true\n")
    #expect(errors { try TokenConfigLoader.load(root: noMap.root) } == [
      "parity/theme-test.yaml:6:13: error: theme 'main': 'output: true' generates the theme's mapping, so the theme needs a 'map:'"
    ])
    let unknownToken = try SplitFoyerConfig.tree(themeTest: "contrast:\n  labels: [labelPrimry]\n  surfaces: [surface]\n")
    #expect(errors { try TokenConfigLoader.load(root: unknownToken.root) }.first?.hasPrefix("parity/theme-test.yaml:2:12: error: contrast: 'labels' names 'labelPrimry', which is not a colour token") == true)
  }

  /// `output` stays a theme-test.yaml key: in the token config it is unknown, as before.
  @Test func outputIsNotAConfigKey() throws {
    let text = try String(contentsOf: TokenFixtures.foyer.appendingPathComponent(TokenConfig.defaultPath), encoding: .utf8)
      .replacingOccurrences(of: "    level: AAA\n", with: "    level: AAA\n    output: true\n")
    #expect(throws: TokenConfigError.self) { try TokenConfigLoader.parse(text, path: TokenConfig.defaultPath) }
  }

  func errors(_ body: () throws -> TokenConfig) -> [String] {
    do {
      _ = try body()
      return []
    } catch let error as TokenConfigError {
      return error.diagnostics.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }
}
