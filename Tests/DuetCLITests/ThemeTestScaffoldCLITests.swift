import Foundation
import Testing

/// Issue 30: `duet init` starts a theme test for a token config that has none,
/// so the theme-test lane checks real ratios on the untouched tree.
@Suite("duet init scaffolds a theme test")
struct ThemeTestScaffoldCLITests {
  /// Examples/Atrium with its `contrast:` and `themes:` taken out of the config,
  /// as a Duet engine config is.
  private func engineShapedAtrium() throws -> FixtureTree {
    let tree = try FixtureTree()
    let source = DocTranscripts.repository.appendingPathComponent("Examples/Atrium")
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name != ".duet" {
      try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: tree.url.appendingPathComponent(name))
    }
    let config = try tree.read("parity/design-tokens.yaml")
    let cut = try #require(config.range(of: "\ncontrast:"))
    try tree.write("parity/design-tokens.yaml", String(config[..<cut.lowerBound]) + "\n")
    // The mapping files the config's map generated; an engine tree has its own mapping instead.
    for generated in ["src-ios/Packages/AtriumKit/Sources/Theming/Generated/SemanticColor+HighContrast.swift",
                      "src-kmp/theming/src/commonMain/kotlin/dev/atrium/theming/Generated/HighContrastSource.kt"] {
      try FileManager.default.removeItem(at: tree.url.appendingPathComponent(generated))
    }
    // The tutorial's hand-written high-contrast theme.
    try tree.write("src-ios/Packages/AtriumKit/Sources/Theming/HighContrastTheme.swift", "final class HighContrastTheme {}\n")
    return tree
  }

  /// The scaffold names the labels and surfaces it guessed, a main theme at AA
  /// and, since the tree's sources name one, a high-contrast theme at AAA; the
  /// theme test runs on it with real ratios, and the manifest gets its lane.
  @Test func initWritesAThemeTestThatRuns() throws {
    let tree = try engineShapedAtrium()
    let run = try tree.duet("init")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("duet init: wrote parity/theme-test.yaml, a starting theme test: 2 label(s) on 1 surface(s), main at AA, highContrast at AAA"), "\(run.stdout)")
    let scaffold = try tree.read("parity/theme-test.yaml")
    #expect(scaffold.contains("labels: [labelPrimary, labelSecondary]"))
    #expect(scaffold.contains("surfaces: [surface]"))
    #expect(scaffold.contains("How duet guessed"))
    let test = try tree.duet("theme-test")
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    #expect(test.stdout.contains("worst 6.48:1 labelSecondary on surface"), "\(test.stdout)")
    #expect(try tree.read("lanes/manifest.yaml").contains("run: theme-test"))
    // The scaffold's map generates no mapping files (theme-test.yaml maps without `output: true`).
    #expect(try tree.duet("design-tokens", "--check").status == 0)
    // Run again (--force): the theme test a team may have edited is kept.
    try tree.write("parity/theme-test.yaml", scaffold + "# edited\n")
    #expect(try tree.duet("init", "--force").status == 0)
    #expect(try tree.read("parity/theme-test.yaml").hasSuffix("# edited\n"))
  }

  /// Issue 38, item 6: derived lanes are the lanes of the tree as it is, and
  /// init also writes a starting theme test and so one lane more. `duet lanes`
  /// and `duet doctor` say so, and the two sets differ by that lane alone.
  @Test func derivedLanesNameTheThemeTestInitAdds() throws {
    let tree = try engineShapedAtrium()
    let derived = try tree.duet("lanes", "--json")
    #expect(derived.status == 0, "\(derived.stderr)")
    let text = try tree.duet("lanes")
    let notice = "duet init would also write parity/theme-test.yaml, a starting theme test, and a theme-test lane that runs it"
    #expect(text.lines.dropFirst().first == notice, "\(text.stdout)")
    #expect(try tree.duet("doctor", "--json").stdout.contains("run duet init to pin them; duet init would also write parity/theme-test.yaml"))
    #expect(try tree.duet("init").status == 0)
    let pinned = try tree.duet("lanes", "--json")
    func names(_ json: String) throws -> [String] {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      return (object["lanes"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }
    let before = try names(derived.stdout), after = try names(pinned.stdout)
    #expect(!before.contains("theme-test"))
    #expect(after.filter { !before.contains($0) } == ["theme-test"], "derived \(before), pinned \(after)")
    #expect(before.filter { !after.contains($0) } == [])
    // Pinned, the lanes are no longer derived and nothing more is promised.
    #expect(!(try tree.duet("lanes")).stdout.contains("would also write"))
  }

  /// A config whose names say nothing of text gets no scaffold, and init says why.
  @Test func noLabelsNoScaffold() throws {
    let tree = try FixtureTree()
    try tree.write("parity/design-tokens.yaml", """
      version: 1
      kotlin: {output: gen, package: a.b, engine: a.b.engine, palette: Palette}
      colors:
        - tokens:
            - {name: brand, value: "#112233"}
            - {name: accent, value: "#445566"}

      """)
    let run = try tree.duet("init")
    #expect(run.status == 0)
    #expect(run.stdout.contains("duet init: no theme test written: no colour token of parity/design-tokens.yaml reads as a label"), "\(run.stdout)")
    #expect(!tree.exists("parity/theme-test.yaml"))
  }
}
