import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Parity manifest")
struct ParityManifestLoaderTests {
  func load(_ text: String) throws(ParityManifestError) -> ParityManifest {
    let node: YAMLNode
    do {
      node = try YAMLParser.parse(text, file: "parity/manifest.yaml")
    } catch {
      throw ParityManifestError(diagnostics: error.diagnostics)
    }
    return try ParityManifestLoader.parse(node, path: "parity/manifest.yaml")
  }

  /// Every diagnostic for `text`, as the CLI prints them.
  func errors(_ text: String) -> [String] {
    do {
      _ = try load(text)
      return []
    } catch {
      return error.diagnostics.map(\.description)
    }
  }

  static let full = """
    # a Duet-shaped manifest
    features:
      home:
        swift: src-ios/Sources/HomeFeature/HomeFeature.swift
        kotlin: src-kmp/home/src/commonMain/kotlin/HomeFeature.kt
        state: HomeState
        scenario: src-ios/Tests/HomeScenarioTests.swift
        fixtures:
          - home
          - home.empty
      settings:
        swift: src-ios/Sources/SettingsFeature/SettingsFeature.swift
        kotlin: pending

    chains:
      - home.welcome

    presentation:
      waivers: []
      islands:
        - id: home.map
          feature: home
          boundary: HomeMapView
          reason: opaque map view
          since: 2026-08-12

    mocks:
      bundle: 0.6.1
      generators:
        HomeMocks:
          output: src-ios/Tests/Mocks/HomeMocks.swift
          template: Mocks.swifttemplate
          sources:
            - src-ios/Sources/HomeFeature
          args:
            - import=HomeFeature
            - testable=HomeFeature
        SettingsMocks:
          output: src-ios/Tests/Mocks/SettingsMocks.swift
          template: Mocks.swifttemplate
          sources: [src-ios/Sources/SettingsFeature]

    replayRunner: src-ios/Tools/Replay

    """

  /// Every section of a Duet-shaped manifest is read, features and rows in file order.
  @Test func readsEverySection() throws {
    let manifest = try load(Self.full)
    #expect(manifest.features.map(\.name) == ["home", "settings"])
    #expect(manifest.features[0].fixtures == ["home", "home.empty"])
    #expect(manifest.features[0].otherKeys["state"] == "HomeState")
    #expect(manifest.features[1].sourcePaths == ["src-ios/Sources/SettingsFeature/SettingsFeature.swift"])
    #expect(manifest.chains.map(\.value) == ["home.welcome"])
    #expect(manifest.waiverCount == 0 && manifest.islandCount == 1)
    #expect(manifest.replayRunner == "src-ios/Tools/Replay")
    #expect(manifest.mocks?.bundle == "0.6.1")
    #expect(manifest.mocks?.generators.map(\.name) == ["HomeMocks", "SettingsMocks"])
    #expect(manifest.mocks?.generators[0].location == SourceLocation(file: "parity/manifest.yaml", line: 30, column: 5))
  }

  /// A row becomes a mock entry whose block records the Duet templates' description and the bundle tag.
  @Test func rowsBecomeMockEntries() throws {
    let entries = try load(Self.full).mockEntries
    #expect(entries.count == 2)
    #expect(entries[0].output == "src-ios/Tests/Mocks/HomeMocks.swift")
    #expect(entries[0].sources == ["src-ios/Sources/HomeFeature"])
    #expect(entries[0].configDescription == "template=Mocks.swifttemplate args=import=HomeFeature;testable=HomeFeature")
    #expect(entries[0].bundle == "0.6.1")
    #expect(entries[0].generator == nil)
    #expect(entries[1].configDescription == "template=Mocks.swifttemplate args=")
  }

  /// For tutorial 7's home_mocks row (`args: [import=HomeShell, import=FoyerKit]`), the description hashes to the
  /// `config:` hash the Duet mock templates recorded in that tutorial's HomeShellMocks.swift.
  @Test func descriptionHashesAsTheTemplatesRecorded() {
    let row = ParityMockGenerator(
      name: "home_mocks", output: "src-ios/Libraries/FoyerKit/Tests/HomeShellTests/Generated/HomeShellMocks.swift",
      template: "Mocks.swifttemplate", sources: ["src-ios/Libraries/FoyerKit/Sources/HomeShell"],
      args: ["import=HomeShell", "import=FoyerKit"], location: SourceLocation(file: "parity/manifest.yaml", line: 1, column: 1))
    #expect(Digest.sha256(row.fingerprintDescription) == "8cd57e157298998e223939d3a83f9f2b1b1dd69d595cd4dd8f7052cac56f0dfa")
  }

  /// The description sorts a row's args by their bytes, as the templates do, whatever order the row lists them in.
  @Test func descriptionSortsArgsByBytes() {
    let row = ParityMockGenerator(
      name: "HomeMocks", output: "o.swift", template: "Mocks.swifttemplate", sources: [],
      args: ["testable=HomeFeature", "import=HomeFeature", "Zeta=1", "import=Home", "éclair=1"],
      location: SourceLocation(file: "parity/manifest.yaml", line: 1, column: 1))
    #expect(row.fingerprintDescription == "template=Mocks.swifttemplate args=Zeta=1;import=Home;import=HomeFeature;testable=HomeFeature;éclair=1")
  }

  /// An unknown top-level key is named at its position, with the nearest known key and the known set.
  @Test func unknownTopLevelKey() {
    let text = Self.full.replacingOccurrences(of: "chains:", with: "chain:") + "lanes: []\n"
    #expect(errors(text) == [
      "parity/manifest.yaml:15:1: error: unknown top-level key 'chain'; did you mean 'chains'? (known: chains, features, mocks, presentation, replayRunner)",
      "parity/manifest.yaml:44:1: error: unknown top-level key 'lanes' (known: chains, features, mocks, presentation, replayRunner)",
    ])
  }

  /// The shape errors of features, the ledger and the mocks section, each at the node it is about.
  @Test func shapeErrors() {
    let text = """
      features:
        home:
          state: HomeState
        away: [x]
      chains: home
      presentation:
        waivers: nope
        skipped: []
      mocks:
        generators:
          A:
            output: Tests/A.swift
            sources: [Sources/A]
            args: [import]
          B:
            output: Tests/B.swift
            template: Mocks.swifttemplate
            package: src-ios
          C:
            template: Mocks.swifttemplate
            sources: [Sources/C]
      replayRunner: [a]

      """
    #expect(errors(text) == [
      "parity/manifest.yaml:2:3: error: feature 'home': declares neither 'swift' nor 'kotlin'; a feature has at least one side",
      "parity/manifest.yaml:4:9: error: feature 'away' must be a mapping with 'swift:' and/or 'kotlin:', got a list",
      "parity/manifest.yaml:5:9: error: 'chains' must be a list, got \"home\"",
      "parity/manifest.yaml:8:3: error: 'presentation': unknown key 'skipped' (allowed: 'waivers', 'islands')",
      "parity/manifest.yaml:7:12: error: 'presentation': 'waivers' must be a list of entries or [], got \"nope\"",
      "parity/manifest.yaml:11:5: error: mock row 'A': missing 'template' (the template file inside the bundle)",
      "parity/manifest.yaml:14:14: error: mock row 'A': every item of 'args' must be key=value, got \"import\"",
      "parity/manifest.yaml:18:16: error: mock row 'B': 'package' roots are derived by 'swift package dump-package', which duet does not run; list the roots under 'sources:' instead",
      "parity/manifest.yaml:19:5: error: mock row 'C': missing 'output' (the committed file, relative to the tree root)",
      "parity/manifest.yaml:9:1: error: 'mocks': missing 'bundle' (the template bundle's release tag), required once a generator row exists",
      "parity/manifest.yaml:22:15: error: 'replayRunner' must be a folder (the Swift package root owning Sources/replay-runner), got a list",
    ])
  }

  /// No `features` section, a document that is not a mapping, and text that is not YAML are errors with positions.
  @Test func wholeFileErrors() {
    #expect(errors("chains: []\n") == ["parity/manifest.yaml:1:1: error: missing 'features' (write 'features:' with no entries for a tree that has none yet)"])
    #expect(errors("- a\n") == ["parity/manifest.yaml:1:1: error: parity/manifest.yaml must be a mapping with a 'features' section, got a list"])
    #expect(errors("features:\n  home: {swift: a\n") == ["parity/manifest.yaml:3:1: error: not valid YAML: while parsing a flow mapping: did not find expected ',' or '}'"])
    #expect(errors("features:\n  home:\n    swift: a\n  home:\n    kotlin: b\n") == ["parity/manifest.yaml:4:3: error: duplicate key 'home' in this mapping"])
  }

  /// An empty `features:` section is the valid state of a tree with no feature yet.
  @Test func emptyFeatures() throws {
    let manifest = try load("features:\nmocks:\n")
    #expect(manifest.features.isEmpty)
    #expect(manifest.mocks?.generators == [])
    #expect(manifest.mockEntries.isEmpty)
  }
}
