import Foundation
import Testing

@Suite("duet design-tokens (the command line, in-process)")
struct DesignTokensCLITests {
  static let tutorialOutput = """
    duet design-tokens: wrote 8 token file(s):
      src-ios/Libraries/FoyerKit/Sources/Theming/Generated/SemanticColor.swift
      src-ios/Libraries/FoyerKit/Sources/Theming/Generated/SemanticFont.swift
      src-ios/Libraries/FoyerKit/Sources/Theming/Generated/MainThemePalette.swift
      src-ios/Libraries/FoyerKit/Sources/Theming/Generated/SemanticColor+HighContrast.swift
      src-kmp/theming/src/commonMain/kotlin/dev/modaal/foyer/theming/Generated/SemanticColor.kt
      src-kmp/theming/src/commonMain/kotlin/dev/modaal/foyer/theming/Generated/SemanticFont.kt
      src-kmp/theming/src/commonMain/kotlin/dev/modaal/foyer/theming/Generated/MainPalette.kt
      src-kmp/theming/src/commonMain/kotlin/dev/modaal/foyer/theming/Generated/HighContrastSource.kt
    review and commit the diff (generated token sources are committed build products)

    """

  /// On a tree with only the tutorial's config (no manifest), run from a subfolder, the command prints the
  /// tutorial's output, writes the Foyer example's committed files, and `--check` prints the pass line.
  @Test func tutorialTreeWritesAndChecks() throws {
    let root = try DesignTokensCLI.temporaryTree()
    defer { try? FileManager.default.removeItem(at: root) }
    try DesignTokensCLI.write(try DesignTokensCLI.foyerConfig(), to: "parity/design-tokens.yaml", in: root)
    let sub = root.appendingPathComponent("src-ios")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)

    let written = try DesignTokensCLI.run(["design-tokens"], in: sub)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout == Self.tutorialOutput)
    let example = DesignTokensCLI.repository.appendingPathComponent("Examples/Foyer")
    for path in ["src-ios/Libraries/FoyerKit/Sources/Theming/Generated/MainThemePalette.swift",
                 "src-kmp/theming/src/commonMain/kotlin/dev/modaal/foyer/theming/Generated/MainPalette.kt"] {
      let made = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
      #expect(made != nil && made == FileManager.default.contents(atPath: example.appendingPathComponent(path).path), "\(path)")
    }

    let checked = try DesignTokensCLI.run(["design-tokens", "--check"], in: sub)
    #expect(checked.status == 0)
    #expect(checked.stdout == "duet design-tokens --check: 8 generated token file(s) up to date\n")
  }

  /// A stale file fails `--check` with exit 1 and the FAIL report on stdout; `--json` reports the same.
  @Test func staleFileFailsTheCheck() throws {
    let root = try DesignTokensCLI.temporaryTree()
    defer { try? FileManager.default.removeItem(at: root) }
    try DesignTokensCLI.write(try DesignTokensCLI.foyerConfig(), to: "parity/design-tokens.yaml", in: root)
    _ = try DesignTokensCLI.run(["design-tokens", "--root", root.path], in: root)
    let path = "src-kmp/theming/src/commonMain/kotlin/dev/modaal/foyer/theming/Generated/MainPalette.kt"
    let url = root.appendingPathComponent(path)
    let text = try String(contentsOf: url, encoding: .utf8)
    try Data(text.replacingOccurrences(of: "0x1F1A1A1A", with: "0x201A1A1A").utf8).write(to: url)

    let checked = try DesignTokensCLI.run(["design-tokens", "--check"], in: root)
    #expect(checked.status == 1)
    #expect(checked.stdout.hasPrefix("duet design-tokens --check: FAIL\n  stale: \(path) — differs"))
    #expect(checked.stdout.contains("    on disk:         SemanticColor.cardBorder -> ColorToken.auto(light = 0x201A1A1A, dark = 0x29EDEDED)\n"))
    #expect(checked.stdout.hasSuffix("regenerate and commit: duet design-tokens\n"))

    let json = try DesignTokensCLI.run(["design-tokens", "--check", "--json"], in: root)
    #expect(json.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 2)
    #expect(object["passed"] as? Bool == false)
    let statuses = (object["files"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
    #expect(statuses == ["upToDate", "upToDate", "upToDate", "upToDate", "upToDate", "upToDate", "stale", "upToDate"])
  }

  /// A config error exits 2 with `file:line:col: error:` on stderr and writes nothing.
  @Test func configErrorExitsTwo() throws {
    let root = try DesignTokensCLI.temporaryTree()
    defer { try? FileManager.default.removeItem(at: root) }
    let config = try DesignTokensCLI.foyerConfig().replacingOccurrences(of: "lightAlpha: 0.12", with: "lightAlpha: \"12%\"")
    try DesignTokensCLI.write(config, to: "parity/design-tokens.yaml", in: root)
    let result = try DesignTokensCLI.run(["design-tokens"], in: root)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("parity/design-tokens.yaml:"))
    #expect(result.stderr.contains(": error: colour token 'cardBorder': 'lightAlpha' must be a number from 0 to 1, got \"12%\""))
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("src-ios").path))
  }

  /// `--config FILE` reads another file, named in messages relative to the root.
  @Test func configOptionOverridesTheDefault() throws {
    let root = try DesignTokensCLI.temporaryTree()
    defer { try? FileManager.default.removeItem(at: root) }
    try DesignTokensCLI.write("version: 1\n", to: "lanes/manifest.yaml", in: root)
    try DesignTokensCLI.write(try DesignTokensCLI.foyerConfig(), to: "design/tokens.yaml", in: root)
    let result = try DesignTokensCLI.run(["design-tokens", "--config", "design/tokens.yaml"], in: root)
    #expect(result.status == 0, "\(result.stderr)")
    let banner = try String(contentsOf: root.appendingPathComponent("src-ios/Libraries/FoyerKit/Sources/Theming/Generated/SemanticColor.swift"), encoding: .utf8)
    #expect(banner.hasPrefix("// Generated by `duet design-tokens` from design/tokens.yaml."))
    let missing = try DesignTokensCLI.run(["design-tokens", "--config", "nope.yaml"], in: root)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("no token config at nope.yaml"))
  }

  /// Outside any tree the command says which two files make one, exit 2.
  @Test func outsideATreeNamesBothMarkers() throws {
    let root = try DesignTokensCLI.temporaryTree()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try DesignTokensCLI.run(["design-tokens", "--check"], in: root)
    #expect(result.status == 2)
    #expect(result.stderr.contains("no lanes/manifest.yaml or parity/design-tokens.yaml in "))
  }

  /// A mistyped option is a usage error with a suggestion, exit 2.
  @Test func unknownOptionSuggests() throws {
    let root = try DesignTokensCLI.temporaryTree()
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try DesignTokensCLI.run(["design-tokens", "--chek"], in: root)
    #expect(result.status == 2)
    #expect(result.stderr.contains("did you mean '--check'?"))
  }
}
