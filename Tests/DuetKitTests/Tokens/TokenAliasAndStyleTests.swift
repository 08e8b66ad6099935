@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing

/// A Kotlin-only config whose colours are `colors` (a YAML list body at two spaces), plus `extra` top-level text.
private func config(colors: String, extra: String = "") -> String {
  "version: 1\nkotlin:\n  output: kmp\n  package: dev.example\n  engine: dev.engine\n  palette: P\ncolors:\n  - tokens:\n\(colors)\(extra)"
}

private func errors(_ text: String) -> [String] {
  do {
    _ = try TokenConfigLoader.parse(text, path: TokenConfig.defaultPath)
    return []
  } catch {
    return error.diagnostics.map(\.description)
  }
}

@Suite("design tokens: YAML aliases, styles and scales")
struct TokenAliasAndStyleTests {
  /// `light: "{x}"` reads x's light value, `value: "{x}"` both of x's, declared before or after; the token's own
  /// alpha applies over the aliased colour, and without one the aliased alpha is kept; chains are followed.
  @Test func aliasesResolve() throws {
    let loaded = try TokenConfigLoader.parse(config(colors: """
            - {name: link, value: "{tint}"}
            - {name: border, light: "{ink}", lightAlpha: 0.2, dark: "{ink}"}
            - {name: ink, light: "#111111", dark: "#EEEEEE", darkAlpha: 0.5}
            - {name: tint, value: "{brand}"}
            - {name: brand, light: "#0000FF", dark: "#3333FF"}
            - {name: plain, value: "{grey}"}
            - {name: grey, value: "#808080"}

      """), path: TokenConfig.defaultPath)
    let values = Dictionary(uniqueKeysWithValues: loaded.colors.map { ($0.name, $0.values) })
    #expect(values["link"] == .lightDark(light: ColorValue(RGB(0x0000FF)), dark: ColorValue(RGB(0x3333FF))))
    #expect(values["border"] == .lightDark(light: ColorValue(RGB(0x111111), alpha: 0.2), dark: ColorValue(RGB(0xEEEEEE), alpha: 0.5)))
    #expect(values["plain"] == .single(ColorValue(RGB(0x808080))))
  }

  /// A broken alias suggests the nearest token; a cycle prints its chain once; an unquoted alias (a YAML flow
  /// mapping) is caught with the quoting to write.
  @Test func aliasErrors() {
    #expect(errors(config(colors: """
            - {name: labelPrimary, value: "#000000"}
            - {name: link, light: "{labelPrimery}", dark: "#FFFFFF"}
            - {name: a, value: "{b}"}
            - {name: b, value: "{a}"}
            - {name: c, value: {labelPrimary}}

      """)) == [
      "parity/design-tokens.yaml:13:26: error: colour token 'c': 'value' reads as a YAML mapping; quote an alias: \"{labelPrimary}\"",
      "parity/design-tokens.yaml:10:29: error: colour token 'link': 'light' is an alias of {labelPrimery}, which names no colour token; did you mean 'labelPrimary'?",
      "parity/design-tokens.yaml:11:26: error: colour token 'a': circular alias: a -> b -> a (in the light appearance)",
    ])
  }

  /// `style:` is checked per target; the engine's keys are refused by name in another style; the plain styles
  /// generate no gradients, which is an error rather than files left out.
  @Test func styleErrors() {
    let base = "version: 1\n"
    #expect(errors(base + "swift:\n  output: ios\n  style: compose\n") == [
      "parity/design-tokens.yaml:4:10: error: the swift target: 'style' must be engine or swiftui, got \"compose\""
    ])
    #expect(errors(base + "swift:\n  output: ios\n  style: swiftui\n  theme: MainTheme\n") == [
      "parity/design-tokens.yaml:5:3: error: the swift target: 'theme' belongs to style engine; style swiftui has none, as it imports no engine and extends SwiftUI's Color"
    ])
    #expect(errors(base + "kotlin:\n  output: kmp\n  package: a.b\n  style: compos\n") == [
      "parity/design-tokens.yaml:5:10: error: the kotlin target: 'style' must be engine or compose, got \"compos\"; did you mean 'compose'?"
    ])
    #expect(errors(base + "swift:\n  output: ios\n  style: swiftui\ncolors:\n  - tokens:\n      - {name: primary, value: \"#000000\"}\n") == [
      "parity/design-tokens.yaml:7:16: error: colour token 'primary': SwiftUI's Color already has 'primary', so style swiftui cannot declare it; rename it (e.g. 'primaryInk')"
    ])
    #expect(errors(base + "kotlin:\n  output: kmp\n  package: a.b\n  style: compose\ngradients:\n  - {name: hero, stops: [\"#000000\", \"#FFFFFF\"]}\n") == [
      "parity/design-tokens.yaml:7:3: error: gradient 'hero': style compose (the kotlin target) generates no gradients; use style engine there, or drop 'gradients'"
    ])
  }

  /// Scale steps: lowerCamelCase names, numbers of points 0 or more, `{value, doc}` with nothing else.
  @Test func scaleErrors() {
    let base = "version: 1\nkotlin:\n  output: kmp\n  package: a.b\n  style: compose\n"
    #expect(errors(base + "spacing:\n  X1: 4\n  x2: -1\n  x3: {value: 8, note: n}\n  x4: {doc: d}\nradius: [4, 8]\n") == [
      "parity/design-tokens.yaml:7:3: error: spacing step 'X1': the name must be lowerCamelCase (a lower-case letter, then letters and digits, e.g. 'cardSurface')",
      "parity/design-tokens.yaml:8:7: error: spacing step 'x2': must be a number of points from 0 to 100000, got \"-1\"",
      "parity/design-tokens.yaml:9:18: error: spacing step 'x3': unknown key 'note' (allowed: 'value', 'doc')",
      "parity/design-tokens.yaml:10:7: error: spacing step 'x4': missing 'value' (a number of points, 0 or more)",
      "parity/design-tokens.yaml:11:9: error: the token config: 'radius' must be a mapping of step names to points (e.g. 'x1: 4'), got a list",
    ])
  }

  /// Switching a target's style leaves the old style's files as orphans that `--check` names and a write
  /// removes, but a file of the same name without duet's banner is the team's own and is never claimed.
  @Test func switchingStyleOrphansTheOldFiles() throws {
    let tree = try TokenTempTree()
    let engine = "version: 1\nkotlin:\n  output: kmp\n  package: a.b\n  engine: c.d\n  palette: P\ncolors:\n  - tokens:\n      - {name: ink, value: \"#000000\"}\n"
    try tree.write(engine, to: TokenConfig.defaultPath)
    _ = DesignTokens.run(root: tree.root, check: false)
    #expect(tree.exists("kmp/P.kt"))
    try tree.write("// The team's own spacing, not duet's.\nobject Spacing\n", to: "kmp/Spacing.kt")
    try tree.write(engine.replacingOccurrences(of: "  engine: c.d\n  palette: P\n", with: "  style: compose\n"), to: TokenConfig.defaultPath)
    guard case .report(let checked) = DesignTokens.run(root: tree.root, check: true) else {
      Issue.record("the compose config did not load")
      return
    }
    #expect(checked.entries.filter { $0.status == .orphaned }.map(\.path) == ["kmp/SemanticColor.kt", "kmp/SemanticFont.kt", "kmp/P.kt"])
    #expect(checked.exitCode == 1)
    _ = DesignTokens.run(root: tree.root, check: false)
    #expect(!tree.exists("kmp/P.kt") && !tree.exists("kmp/SemanticColor.kt"))
    #expect(tree.exists("kmp/SemanticColors.kt"))
    #expect(tree.read("kmp/Spacing.kt")?.hasPrefix("// The team's own") == true)
    #expect(DesignTokens.run(root: tree.root, check: true).exitCode == 0)
  }
}
