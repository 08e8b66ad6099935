@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing

@Suite("design tokens: write and --check")
struct TokenCheckTests {
  /// A tree holding the full fixture config at the default path.
  func tree(_ fixture: String = "full") throws -> TokenTempTree {
    let tree = try TokenTempTree()
    try tree.write(try TokenFixtures.configText(fixture), to: TokenConfig.defaultPath)
    return tree
  }

  func report(_ outcome: DesignTokens.Outcome, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> TokenReport {
    guard case .report(let report) = outcome else {
      Issue.record("expected a report, got \(outcome.text)", sourceLocation: sourceLocation)
      throw CancellationError()
    }
    return report
  }

  /// A write creates every planned file with the planned bytes, and `--check` then passes with the pass line.
  @Test func writeThenCheckPasses() throws {
    let tree = try tree()
    let written = try report(DesignTokens.run(root: tree.root, check: false))
    #expect(written.entries.count == 8)
    #expect(written.entries.allSatisfy { $0.status == .written })
    #expect(written.text.text.hasPrefix("duet design-tokens: wrote 8 token file(s):\n  ios/Theming/Generated/SemanticColor.swift\n"))
    #expect(written.text.text.hasSuffix("\nreview and commit the diff (generated token sources are committed build products)"))
    let plan = TokenPlan(try TokenFixtures.config("full"))
    for file in plan.files { #expect(tree.read(file.path) == file.contents) }

    let outcome = DesignTokens.run(root: tree.root, check: true)
    #expect(outcome.exitCode == 0)
    #expect(outcome.text == "duet design-tokens --check: 8 generated token file(s) up to date")
  }

  /// A second write touches no file: unchanged files keep their modification date.
  @Test func unchangedFilesAreNotTouched() throws {
    let tree = try tree()
    _ = DesignTokens.run(root: tree.root, check: false)
    let path = tree.root.appendingPathComponent("ios/Theming/Generated/SemanticColor.swift").path
    let past = Date(timeIntervalSince1970: 1_000_000)
    try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: path)
    let second = try report(DesignTokens.run(root: tree.root, check: false))
    #expect(second.entries.allSatisfy { $0.status == .unchanged })
    #expect(second.text == "duet design-tokens: 8 token file(s) up to date, nothing written")
    let date = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    #expect(date == past)
  }

  /// A hand edit makes the file stale, with the first differing line on both sides; exit 1, nothing written.
  @Test func handEditIsStale() throws {
    let tree = try tree()
    _ = DesignTokens.run(root: tree.root, check: false)
    let path = "kmp/theming/Generated/MainPalette.kt"
    let original = try #require(tree.read(path))
    try tree.write(original.replacingOccurrences(of: "0x4D000000", with: "0x4C000000"), to: path)
    let before = tree.snapshot()
    let outcome = DesignTokens.run(root: tree.root, check: true)
    #expect(outcome.exitCode == 1)
    let lineNumber = try #require(original.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("0x4D000000") }) + 1
    #expect(outcome.text == """
      duet design-tokens --check: FAIL
        stale: \(path) — differs from what the config generates, from line \(lineNumber):
          on disk:         SemanticColor.scrim -> ColorToken.fixed(0x4C000000)
          generated:       SemanticColor.scrim -> ColorToken.fixed(0x4D000000)
      regenerate and commit: duet design-tokens
      """)
    #expect(tree.snapshot() == before)
  }

  /// A config change without regeneration makes the affected files stale.
  @Test func configChangeMakesFilesStale() throws {
    let tree = try tree()
    _ = DesignTokens.run(root: tree.root, check: false)
    let config = try #require(tree.read(TokenConfig.defaultPath))
    try tree.write(config.replacingOccurrences(of: "\"#0A84FF\"", with: "\"#0A84FE\""), to: TokenConfig.defaultPath)
    let checked = try report(DesignTokens.run(root: tree.root, check: true))
    #expect(checked.entries.filter { $0.status == .stale }.map(\.path) == [
      "ios/Theming/Generated/MainThemePalette.swift", "kmp/theming/Generated/MainPalette.kt",
    ])
  }

  /// A deleted file is missing; a missing final newline is stale at the line after the last.
  @Test func missingAndTruncatedFiles() throws {
    let tree = try tree()
    _ = DesignTokens.run(root: tree.root, check: false)
    try FileManager.default.removeItem(at: tree.root.appendingPathComponent("ios/Theming/Generated/SemanticFont.swift"))
    let vocabulary = try #require(tree.read("kmp/theming/Generated/SemanticColor.kt"))
    try tree.write(String(vocabulary.dropLast()), to: "kmp/theming/Generated/SemanticColor.kt")
    let checked = try report(DesignTokens.run(root: tree.root, check: true))
    #expect(checked.exitCode == 1)
    #expect(checked.text.text.contains("\n  missing: ios/Theming/Generated/SemanticFont.swift\n"))
    let stale = try #require(checked.entries.first { $0.status == .stale })
    #expect(stale.path == "kmp/theming/Generated/SemanticColor.kt")
    #expect(stale.difference?.onDisk == nil)
    #expect(stale.difference?.generated == "")
    #expect(!tree.exists("ios/Theming/Generated/SemanticFont.swift"))
  }

  /// Removing the last gradient leaves both `SemanticGradient` files orphaned; a write removes them.
  @Test func removedGradientsAreOrphanedThenRemoved() throws {
    let tree = try tree()
    _ = DesignTokens.run(root: tree.root, check: false)
    let config = try #require(tree.read(TokenConfig.defaultPath))
    let withoutGradients = String(config[..<(try #require(config.range(of: "\ngradients:"))).lowerBound]) + "\n"
    try tree.write(withoutGradients, to: TokenConfig.defaultPath)

    let checked = try report(DesignTokens.run(root: tree.root, check: true))
    #expect(checked.entries.filter { $0.status == .orphaned }.map(\.path) == [
      "ios/Theming/Generated/SemanticGradient.swift", "kmp/theming/Generated/SemanticGradient.kt",
    ])
    #expect(checked.text.text.contains("\n  orphaned: ios/Theming/Generated/SemanticGradient.swift — the config no longer declares it"))
    #expect(checked.text.text.hasSuffix("\nregenerate and commit: duet design-tokens"))
    #expect(tree.exists("ios/Theming/Generated/SemanticGradient.swift"))

    let written = try report(DesignTokens.run(root: tree.root, check: false))
    #expect(written.entries.filter { $0.status == .removed }.count == 2)
    #expect(!tree.exists("ios/Theming/Generated/SemanticGradient.swift"))
    #expect(DesignTokens.run(root: tree.root, check: true).exitCode == 0)
  }

  /// A tree with no config generates nothing and passes, in both modes.
  @Test func noConfigPasses() throws {
    let tree = try TokenTempTree()
    let checked = DesignTokens.run(root: tree.root, check: true)
    #expect(checked.exitCode == 0)
    #expect(checked.text == "duet design-tokens --check: 0 generated token file(s) up to date (no parity/design-tokens.yaml in this tree)")
    #expect(DesignTokens.run(root: tree.root, check: false).exitCode == 0)
    #expect(tree.snapshot().isEmpty)
  }

  /// A named config that does not exist is an error, not a pass.
  @Test func explicitMissingConfigIsAnError() throws {
    let tree = try TokenTempTree()
    let outcome = DesignTokens.run(root: tree.root, configPath: "tokens.yaml", explicit: true, check: true)
    #expect(outcome.exitCode == 2)
  }

  /// A config error writes nothing and exits 2 with `file:line:col`.
  @Test func configErrorWritesNothing() throws {
    let tree = try tree()
    let config = try #require(tree.read(TokenConfig.defaultPath))
    try tree.write(config.replacingOccurrences(of: "weight: 500", with: "weight: 550"), to: TokenConfig.defaultPath)
    let before = tree.snapshot()
    let outcome = DesignTokens.run(root: tree.root, check: false)
    #expect(outcome.exitCode == 2)
    #expect(outcome.text.text.hasPrefix("parity/design-tokens.yaml:"))
    #expect(outcome.text.text.contains(": error: font token 'code': 'weight' must be a multiple of 100 from 100 to 900, got \"550\""))
    #expect(tree.snapshot() == before)
  }

  /// An output folder reached through a symbolic link is refused before any file is written.
  @Test func symbolicLinkOutIsRefused() throws {
    let tree = try tree()
    let outside = try TokenTempTree()
    try FileManager.default.createSymbolicLink(at: tree.root.appendingPathComponent("kmp"), withDestinationURL: outside.root)
    let outcome = DesignTokens.run(root: tree.root, check: false)
    #expect(outcome.exitCode == 2)
    #expect(outcome.text.text.contains("refusing to write kmp/theming/Generated/SemanticColor.kt"))
    #expect(!tree.exists("ios/Theming/Generated/SemanticColor.swift"))
    #expect(outside.snapshot().isEmpty)
  }

  /// Every `--json` report carries `schemaVersion` 1 and the per-file statuses.
  @Test func jsonCarriesSchemaVersion() throws {
    let tree = try tree("minimal")
    let written = DesignTokens.run(root: tree.root, check: false)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(written.json.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 2)
    #expect(object["mode"] as? String == "write")
    #expect((object["files"] as? [[String: Any]])?.count == 6)
    try tree.write("version: 1\nkotlin: []\n", to: TokenConfig.defaultPath)
    let failed = DesignTokens.run(root: tree.root, check: true)
    let errorObject = try #require(try JSONSerialization.jsonObject(with: Data(failed.json.utf8)) as? [String: Any])
    #expect(errorObject["schemaVersion"] as? Int == 2)
    let errors = try #require(errorObject["errors"] as? [[String: Any]])
    #expect(errors.first?["line"] as? Int == 2)
  }

  /// The built-in lane `run: design-tokens --check` gives the command's text and exit codes in-process.
  @Test func builtinLaneRunsTheCheck() throws {
    let lane = try #require(BuiltinSet.standard.lane(named: "design-tokens"))
    #expect(lane.options == ["--check"])
    let tree = try tree()
    let missing = lane.run(BuiltinContext(tree: tree.root, arguments: ["--check"], vocabulary: BuiltinSet.standard.vocabulary, environment: testEnvironment))
    #expect(missing.exitCode == 1)
    #expect(missing.output.hasPrefix("duet design-tokens --check: FAIL\n  missing: "))
    #expect(tree.snapshot().count == 1)
    _ = DesignTokens.run(root: tree.root, check: false)
    let passed = lane.run(BuiltinContext(tree: tree.root, arguments: ["--check"], vocabulary: BuiltinSet.standard.vocabulary, environment: testEnvironment))
    #expect(passed.exitCode == 0)
    #expect(passed.output == DesignTokens.run(root: tree.root, check: true).text.text)
    try tree.write("version: 9\n", to: TokenConfig.defaultPath)
    #expect(lane.run(BuiltinContext(tree: tree.root, arguments: ["--check"], vocabulary: BuiltinSet.standard.vocabulary, environment: testEnvironment)).exitCode == 2)
  }

  /// The built-in's implicit inputs are the config, every generated file and every owned file, so a cache sees them.
  @Test func implicitInputsNameEveryFileTheCheckReads() throws {
    let tree = try tree("minimal")
    let inputs = DesignTokens.implicitInputs(tree.root)
    #expect(inputs.first == TokenConfig.defaultPath)
    // The config, the theme-test settings beside it, six generated files, ten owned files (two gradient files,
    // and per target the other style's files and the two scales) and each output folder's source files.
    #expect(inputs.count == 2 + 6 + 10 + 2)
    #expect(inputs.contains(ThemeTestFile.defaultPath))
    #expect(inputs.contains("ios/Generated/Color+Tokens.swift"))
    #expect(inputs.contains("kmp/Generated/Spacing.kt"))
    #expect(inputs.contains("ios/Generated/*.swift"))
    #expect(inputs.contains("kmp/Generated/*.kt"))
    #expect(inputs.contains("kmp/Generated/MainPalette.kt"))
    #expect(inputs.contains("ios/Generated/SemanticGradient.swift"))
    #expect(DesignTokens.implicitInputs(try TokenTempTree().root) == [TokenConfig.defaultPath, ThemeTestFile.defaultPath])
  }

  /// A manifest lane `run: design-tokens --check` is accepted by the manifest loader.
  @Test func manifestAcceptsTheBuiltin() throws {
    let node = try YAMLParser.parse("version: 1\nlanes:\n  - name: design-tokens\n    run: design-tokens --check\n", file: "lanes/manifest.yaml")
    let manifest = try ManifestLoader.parse(node, path: "lanes/manifest.yaml", builtins: BuiltinSet.standard.vocabulary)
    #expect(manifest.lanes.map(\.name) == ["design-tokens"])
  }
}
