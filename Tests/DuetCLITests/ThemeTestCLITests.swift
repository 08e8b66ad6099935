import Foundation
import Testing

@Suite("duet theme-test and duet contrast (the command line, in-process)")
struct ThemeTestCLITests {
  static let foyerOutput = """
    duet theme-test: parity/design-tokens.yaml, 9 pair(s) per theme and appearance
      main          light  AA   ok  worst 4.77:1 labelSecondary on cardSurface
      main          dark   AA   ok  worst 4.55:1 labelSecondary on lockedSurface
      highContrast  light  AAA  ok  worst 17.40:1 labelPrimary on surface
      highContrast  dark   AAA  ok  worst 16.00:1 labelPrimary on surface
    duet theme-test: PASS (36 pairs, worst 4.55:1 labelSecondary on lockedSurface, dark, main)

    """

  /// A tree holding the example's token config, optionally edited.
  func foyerTree(_ edit: (String) -> String = { $0 }) throws -> FixtureTree {
    let tree = try FixtureTree()
    try tree.write("parity/design-tokens.yaml", edit(try DesignTokensCLI.foyerConfig()))
    return tree
  }

  /// The example passes with a line per theme and appearance and the summary the issue gives.
  @Test func foyerPasses() throws {
    let tree = try foyerTree()
    let run = try tree.duet("theme-test")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == Self.foyerOutput)
    #expect(run.stderr.isEmpty)
  }

  /// The tutorial's exercise from the binary: a lighter secondary grey fails the main theme (exit 1),
  /// every shortfall is a line, and the high-contrast theme still passes.
  @Test func exerciseFailsMainOnly() throws {
    let tree = try foyerTree { $0.replacingOccurrences(of: "light: \"#6A6A6A\"", with: "light: \"#8A8A8A\"") }
    let run = try tree.duet("theme-test")
    #expect(run.status == 1)
    #expect(run.lines.contains("labelSecondary on cardSurface (light, main): 3.05:1 < 4.5:1 (AA)"), "\(run.stdout)")
    #expect(run.lines.contains("  main          light  AA   3 short  worst 3.05:1 labelSecondary on cardSurface"), "\(run.stdout)")
    #expect(run.lines.contains { $0.hasPrefix("  highContrast  light  AAA  ok") })
    #expect(!run.stdout.contains("highContrast):"))
    #expect(run.lines.dropLast().last == "duet theme-test: FAIL (3 of 36 pairs short, worst 3.05:1 labelSecondary on cardSurface, light, main)")

    let json = try tree.duet("theme-test", "--json")
    #expect(json.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let pairs = try #require(object["pairs"] as? [[String: Any]])
    #expect(pairs.count == 36)
    #expect(object["shortfalls"] as? Int == 3)
    #expect(object["passed"] as? Bool == false)
    let failing = pairs.filter { $0["passed"] as? Bool == false }
    #expect(failing.compactMap { $0["surface"] as? String } == ["surface", "cardSurface", "lockedSurface"])
    let first = try #require(pairs.first)
    #expect(first["labelColor"] as? String == "#1A1A1A" && first["surfaceColor"] as? String == "#FFFFFF")
    #expect((first["ratio"] as? Double).map { $0 > 17 } == true)
  }

  /// A map error exits 2 with `file:line:col: error:` naming the token; the missing config and a config
  /// without `contrast:` exit 2 too, as a check with nothing to check must not pass.
  @Test func configErrorsExitTwo() throws {
    let tree = try foyerTree { $0.replacingOccurrences(of: "labelLocked, cardBorder]", with: "labelLocked]") }
    let run = try tree.duet("theme-test")
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("parity/design-tokens.yaml:"))
    #expect(run.stderr.contains(": error: theme 'highContrast': colour token 'cardBorder' is left out of 'map'"), "\(run.stderr)")
    #expect(try tree.duet("design-tokens", "--check").status == 2)

    let empty = try FixtureTree(manifest: "version: 1\nlanes: []\n")
    let missing = try empty.duet("theme-test")
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("no token config at parity/design-tokens.yaml"), "\(missing.stderr)")

    let bare = try foyerTree { text in String(text[..<text.range(of: "# What `duet theme-test` checks")!.lowerBound]) }
    let noContrast = try bare.duet("theme-test")
    #expect(noContrast.status == 2)
    #expect(noContrast.stderr.hasPrefix("parity/design-tokens.yaml:1:1: error: the token config has no 'contrast:' section"), "\(noContrast.stderr)")
  }

  /// The built-in lane runs the same check inside verify and fails the run on a shortfall.
  @Test func builtinLaneInVerify() throws {
    let manifest = "version: 1\nlanes:\n  - name: design-tokens\n    run: design-tokens --check\n  - name: theme-test\n    run: theme-test\n    needs: [design-tokens]\n"
    let tree = try foyerTree()
    try tree.write("lanes/manifest.yaml", manifest)
    #expect(try tree.duet("design-tokens").status == 0)
    let env = ["DUET_HISTORY": "off"]
    let passing = try runDuet(["verify"], in: tree.url, environment: env)
    #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
    #expect(passing.stdout.contains("theme-test"))
    #expect(passing.lines.last { !$0.isEmpty } == "duet verify: PASS (2 passed)")

    let config = try tree.read("parity/design-tokens.yaml")
    try tree.write("parity/design-tokens.yaml", config.replacingOccurrences(of: "dark: \"#9C9C9C\"", with: "dark: \"#5C5C5C\""))
    #expect(try tree.duet("design-tokens").status == 0)
    let failing = try runDuet(["verify"], in: tree.url, environment: env)
    #expect(failing.status == 1)
    #expect(failing.stdout.contains("labelSecondary on surface (dark, main):"), "\(failing.stdout)")
    #expect(failing.lines.last { !$0.isEmpty } == "duet verify: FAIL (1 failed: theme-test)")
  }

  /// Removing the second theme makes its generated files orphans that `--check` names and a write removes.
  @Test func removedThemeLeavesOrphans() throws {
    let tree = try foyerTree()
    let written = try tree.duet("design-tokens")
    #expect(written.stdout.hasPrefix("duet design-tokens: wrote 8 token file(s):"), "\(written.stdout)")
    let swift = "src-ios/Libraries/FoyerKit/Sources/Theming/Generated/SemanticColor+HighContrast.swift"
    let kotlin = "src-kmp/theming/src/commonMain/kotlin/dev/modaal/foyer/theming/Generated/HighContrastSource.kt"
    #expect(tree.exists(swift) && tree.exists(kotlin))
    // A team's own file in the folder, without duet's banner, is never claimed.
    let own = "src-kmp/theming/src/commonMain/kotlin/dev/modaal/foyer/theming/Generated/DataSource.kt"
    try tree.write(own, "package x\n")

    let config = try tree.read("parity/design-tokens.yaml")
    let cut = try #require(config.range(of: "  - name: highContrast"))
    try tree.write("parity/design-tokens.yaml", String(config[..<cut.lowerBound]))
    let checked = try tree.duet("design-tokens", "--check")
    #expect(checked.status == 1)
    #expect(checked.stdout.contains("  orphaned: \(swift)"), "\(checked.stdout)")
    #expect(checked.stdout.contains("  orphaned: \(kotlin)"))
    #expect(!checked.stdout.contains("DataSource.kt"))
    #expect(try tree.duet("design-tokens").status == 0)
    #expect(!tree.exists(swift) && !tree.exists(kotlin))
    #expect(tree.exists(own))
    #expect(try tree.duet("design-tokens", "--check").status == 0)
  }

  /// `duet contrast` prints the ratio and the four thresholds; exit 0 whatever the ratio, 2 on a bad colour.
  @Test func contrastCommand() throws {
    let tree = try FixtureTree()
    let near = try tree.duet("contrast", "#777777", "#FFFFFF")
    #expect(near.status == 0)
    #expect(near.stdout == """
      4.47:1  #777777 on #FFFFFF
        AA   normal text  fail  needs 4.5:1
        AA   large text   pass  needs 3:1
        AAA  normal text  fail  needs 7:1
        AAA  large text   fail  needs 4.5:1

      """)
    let issue = try tree.duet("contrast", "#6A6A6A", "#F1F1EE")
    #expect(issue.status == 0)
    #expect(issue.lines.first == "4.77:1  #6A6A6A on #F1F1EE")
    let json = try tree.duet("contrast", "000", "fff", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["ratioText"] as? String == "21.00:1")

    let bad = try tree.duet("contrast", "#6A6A6A", "beige")
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("cannot read the background colour 'beige'"), "\(bad.stderr)")
    #expect(try tree.duet("contrast", "#6A6A6A").status == 2)
    #expect(try tree.duet("contrast", "#000", "#fff", "#ccc").status == 2)
  }
}
