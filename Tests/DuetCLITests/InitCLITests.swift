import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("duet init and derived lanes (the command line, in-process)")
struct InitCLITests {
  func duetShapedTree(gradleWrapper: Bool = true) throws -> FixtureTree {
    let tree = try FixtureTree()
    try DuetShapedTree.write(into: tree, gradleWrapper: gradleWrapper)
    return tree
  }

  /// `duet lanes --json` as an object, with the fields that say where the lanes came from removed.
  func lanesJSON(_ tree: FixtureTree) throws -> [String: Any] {
    let run = try tree.duet("lanes", "--json")
    #expect(run.status == 0, "\(run.stderr)")
    var object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    object["manifest"] = nil
    object["derived"] = nil
    return object
  }

  /// On a narrow terminal (COLUMNS=60) the survey keeps every path whole: a path
  /// longer than the column stands on a line of its own (it was cut mid-word).
  @Test func surveyKeepsPathsWhole() throws {
    let tree = try FixtureTree()
    let atrium = InstallCLITests.repository.appendingPathComponent("Examples/Atrium")
    for item in try FileManager.default.contentsOfDirectory(atPath: atrium.path) where item != ".duet" && item != "lanes" {
      try FileManager.default.copyItem(at: atrium.appendingPathComponent(item), to: tree.url.appendingPathComponent(item))
    }
    let run = try tree.duet("init", environment: ["COLUMNS": "60"])
    #expect(run.status == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.contains("src-kmp/theming/src/commonMain/kotlin/dev/atrium/theming/Generated,"), "\(run.stdout)")
    #expect(lines.contains("src-ios/Packages/AtriumKit/Sources/Theming/Generated"), "\(run.stdout)")
  }

  /// `init` writes a commented manifest that `duet lanes` accepts as it is, with a lane
  /// for every module so none is outside the manifest, and says what it found and why.
  @Test func initWritesAManifestLanesAccepts() throws {
    let tree = try duetShapedTree()
    let run = try tree.duet("init")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.isEmpty)
    let out = run.stdout
    #expect(out.hasPrefix("duet init: surveyed \(tree.url.path)\nfound:\n"))
    #expect(out.contains("  parity/manifest.yaml "))
    #expect(out.contains("2 feature(s), 1 chain(s), 2 mock generator row(s)"))
    #expect(out.contains("token config with 1 theme(s)"))
    #expect(out.contains("3 Gradle module(s): :app, :feature:home, :theming"))
    #expect(out.contains("Swift package, test target(s): HomeFeatureTests"))
    #expect(out.contains("lanes, and why each exists:\n"))
    #expect(out.contains("kotlin-app"))
    #expect(out.contains("Gradle module :app has only device tests (src/androidTest): assembled"))
    #expect(out.hasSuffix("duet init: wrote lanes/manifest.yaml (10 lane(s)); 'duet lanes' lists them, 'duet verify' runs them\n"))

    let written = try tree.read("lanes/manifest.yaml")
    #expect(written.hasPrefix("# The lanes of this tree, written by `duet init`"))
    #expect(written.contains("  # Gradle module :feature:home has tests (src/commonTest), run by jvmTest;\n"))
    #expect(!written.contains("\t"))
    for line in written.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    // Issue 40: a Gradle test lane's reports are its module's build/test-results; a
    // Swift test lane writes its own with --xunit-output (folded: the line is long).
    #expect(written.contains("    reports: [src-kmp/feature/home/build/test-results/**/*.xml]\n"))
    #expect(written.contains("    sh: >-\n      swift test --package-path src-ios/Packages/HomeKit --xunit-output\n      src-ios/Packages/HomeKit/.build/duet-xunit.xml\n"))
    #expect(written.contains("    reports: [src-ios/Packages/HomeKit/.build/duet-xunit*.xml]\n"))
    #expect(written.components(separatedBy: "    reports:").count == 6, "\(written)")

    let lanes = try tree.duet("lanes")
    #expect(lanes.status == 0, "\(lanes.stderr)")
    #expect(lanes.lines.first == "lanes/manifest.yaml: 10 lane(s), in run order")
    #expect(lanes.stdout.contains("outside the manifest: none (every module is covered by a lane)\n"))

    let json = try lanesJSON(tree)
    let entries = try #require(json["lanes"] as? [[String: Any]])
    func lane(_ name: String) -> [String: Any]? { entries.first { $0["name"] as? String == name } }
    #expect(entries.compactMap { $0["name"] as? String }.sorted() == [
      "design-tokens", "kotlin-app", "kotlin-feature-home", "kotlin-legacy", "kotlin-theming", "mocks", "swift-Design", "swift-HomeKit", "swift-Lint", "theme-test",
    ])
    #expect(lane("theme-test")?["needs"] as? [String] == ["design-tokens"])
    #expect(lane("mocks")?["command"] as? String == "mocks --check")
    #expect(lane("kotlin-feature-home")?["command"] as? String == "./gradlew :feature:home:jvmTest --console=plain")
    #expect(lane("kotlin-feature-home")?["dir"] as? String == "src-kmp")
    #expect(lane("kotlin-feature-home")?["needs"] as? [String] == ["design-tokens"])
    #expect(lane("kotlin-feature-home")?["covers"] as? [String] == ["src-kmp/feature/home"])
    #expect(lane("kotlin-theming")?["needs"] as? [String] == ["design-tokens"])
    #expect(lane("kotlin-app")?["command"] as? String == "./gradlew :app:assemble --console=plain")
    #expect(lane("kotlin-app")?["needs"] as? [String] == [])
    #expect(lane("kotlin-legacy")?["command"] as? String == "gradle :legacy:test --console=plain")
    #expect(lane("kotlin-legacy")?["dir"] as? String == "android")
    #expect(lane("kotlin-legacy")?["requires"] as? [String] == ["gradle", "java"])
    #expect(lane("swift-HomeKit")?["command"] as? String == "swift test --package-path src-ios/Packages/HomeKit --xunit-output src-ios/Packages/HomeKit/.build/duet-xunit.xml")
    #expect(lane("swift-HomeKit")?["needs"] as? [String] == ["design-tokens"])
    #expect(lane("swift-Design")?["command"] as? String == "swift build --package-path src-ios/Packages/Design")
    #expect(lane("swift-Design")?["needs"] as? [String] == ["design-tokens"])
    #expect(lane("swift-Lint")?["command"] as? String == "swift test --package-path src-ios/Packages/HomeKit/Plugins/Lint --xunit-output src-ios/Packages/HomeKit/Plugins/Lint/.build/duet-xunit.xml")
    #expect(lane("swift-Lint")?["covers"] as? [String] == ["src-ios/Packages/HomeKit/Plugins/Lint"])
    #expect(lane("swift-Lint")?["needs"] as? [String] == [])
    #expect((json["outsideManifest"] as? [String]) == [])
  }

  /// Without `lanes/manifest.yaml`, `lanes` and `verify` derive the lanes from the tree,
  /// say so in their first line, and derive exactly the lanes `init` then writes.
  @Test func derivedLanesEqualInit() throws {
    let tree = try duetShapedTree()
    let lanes = try tree.duet("lanes")
    #expect(lanes.status == 0, "\(lanes.stderr)")
    #expect(lanes.lines.first == "lanes derived from parity/manifest.yaml; run duet init to pin them")
    #expect(lanes.lines.dropFirst().first == "parity/manifest.yaml: 10 derived lane(s), in run order")
    #expect(lanes.stdout.contains("outside the manifest: none"))
    let dryRun = try tree.duet("verify", "--dry-run", "--jobs", "1")
    #expect(dryRun.status == 0, "\(dryRun.stderr)")
    #expect(dryRun.lines.first == "lanes derived from parity/manifest.yaml; run duet init to pin them")
    let derivedJSON = try tree.duet("lanes", "--json")
    #expect(derivedJSON.stdout.contains("\"derived\" : true"))
    let derived = try lanesJSON(tree)

    #expect(try tree.duet("init").status == 0)
    let pinned = try lanesJSON(tree)
    #expect(NSDictionary(dictionary: derived).isEqual(to: pinned), "derived: \(derived)\npinned: \(pinned)")
    let pinnedDryRun = try tree.duet("verify", "--dry-run", "--jobs", "1")
    #expect(pinnedDryRun.lines.first?.hasPrefix("duet verify --dry-run: 10 lane(s)") == true)
    #expect(Array(dryRun.lines.dropFirst()) == pinnedDryRun.lines)
    #expect(!(try tree.duet("lanes")).stdout.contains("derived"))
  }

  /// A derived run really runs: the built-in lanes pass on the derived tree and say where their lanes came from.
  @Test func derivedVerifyRuns() throws {
    let tree = try duetShapedTree()
    #expect(try tree.duet("design-tokens").status == 0)
    // The fixture's mock files have no blocks yet, which the Duet templates would have written.
    let refused = try tree.duet("mocks")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains(": it has no fingerprint block, and the Duet mock templates make it, not duet; regenerate it with them"), "\(refused.stderr)")
    #expect(try tree.duet("mocks", "--accept-body").status == 0)
    let run = try tree.duet("verify", "--lane", "theme-test", "--lane", "mocks", environment: ["DUET_HISTORY": "off"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.lines.first == "lanes derived from parity/manifest.yaml; run duet init to pin them")
    #expect(run.stdout.hasSuffix("duet verify: PASS (3 passed)\n"), "\(run.stdout)")
  }

  /// `init` never replaces a manifest unless told to: exit 1 and the file untouched; `--force` replaces it.
  @Test func refusesToOverwriteWithoutForce() throws {
    let tree = try duetShapedTree()
    try tree.write("lanes/manifest.yaml", "version: 1\nlanes: []\n# mine\n")
    let refused = try tree.duet("init")
    #expect(refused.status == 1)
    #expect(refused.stdout.isEmpty)
    #expect(refused.stderr == "duet init: lanes/manifest.yaml already exists in \(tree.url.path); nothing written (pass --force to replace it)\n")
    #expect(try tree.read("lanes/manifest.yaml") == "version: 1\nlanes: []\n# mine\n")

    let forced = try tree.duet("init", "--force")
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.lines.dropLast().last == "duet init: replaced lanes/manifest.yaml (10 lane(s)); 'duet lanes' lists them, 'duet verify' runs them")
    #expect(try tree.read("lanes/manifest.yaml").hasPrefix("# The lanes of this tree, written by `duet init`"))
    #expect(try tree.duet("lanes").status == 0)
    // The same tree gives the same file: init is deterministic.
    let first = try tree.read("lanes/manifest.yaml")
    #expect(try tree.duet("init", "--force").status == 0)
    #expect(try tree.read("lanes/manifest.yaml") == first)
  }

  /// `--force` replaces the lanes but keeps the old file's `modules:` and `mocks:` (which no
  /// survey rebuilds), even when its lanes are broken; a broken `mocks:` stops it, file untouched.
  @Test func forceKeepsMockEntriesAndModules() throws {
    let tree = try duetShapedTree()
    try tree.write("Sources/Shell/Shell.swift", "struct Shell {}\n")
    try tree.write("extra/tool/README", "x\n")
    let old = "version: 1\nmodules: [\"extra/*\"]\nmocks:\n  - output: Tests/ShellMocks.swift\n    sources: [Sources/Shell]\n    include: [\"**/*.swift\", \"**/*.h\"]\n    generator: \"make mocks\"\n    bundle: \"gen: 1.2\"\nlanes:\n  - name: broken\n    shx: 1\n"
    try tree.write("lanes/manifest.yaml", old)
    let forced = try tree.duet("init", "--force")
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.stdout.contains("lanes/manifest.yaml "))
    #expect(forced.stdout.contains("1 mock entry and 1 modules: pattern(s), kept in the file that replaces"))
    let written = try tree.read("lanes/manifest.yaml")
    #expect(written.contains("""
      # Kept from the lanes/manifest.yaml this file replaced.
      modules: [extra/*]
      mocks:
        - output: Tests/ShellMocks.swift
          sources: [Sources/Shell]
          include: ["**/*.swift", "**/*.h"]
          generator: make mocks
          bundle: "gen: 1.2"

      # Each Gradle build's lanes share a pool of depth 1: two Gradle runs in one
      # build contend for its locks, so they take turns.
      pools:
        gradle-android: 1
        gradle-src-kmp: 1

      lanes:
      """))
    let json = try lanesJSON(tree)
    #expect((json["outsideManifest"] as? [String]) == ["extra/tool"])
    #expect(try tree.duet("mocks", "--check").stdout.contains("Tests/ShellMocks.swift"))

    try tree.write("lanes/manifest.yaml", "version: 1\nmocks:\n  - sources: [a]\nlanes: []\n")
    let refused = try tree.duet("init", "--force")
    #expect(refused.status == 2)
    #expect(refused.stderr.hasPrefix("duet init: error: lanes/manifest.yaml cannot be replaced: its modules: or mocks: section would be lost; fix it or move the file aside first\nlanes/manifest.yaml:3:5: error: "), "\(refused.stderr)")
    #expect(try tree.read("lanes/manifest.yaml") == "version: 1\nmocks:\n  - sources: [a]\nlanes: []\n")
    try tree.write("lanes/manifest.yaml", "lanes: [\n")
    let unreadable = try tree.duet("init", "--force")
    #expect(unreadable.status == 2)
    #expect(unreadable.stderr.hasPrefix("duet init: error: lanes/manifest.yaml cannot be replaced: it does not read as YAML, so duet cannot keep its modules: and mocks: (if it has them)"), "\(unreadable.stderr)")
    #expect(try tree.read("lanes/manifest.yaml") == "lanes: [\n")
  }

  /// A tree without a wrapper and without a token config: `gradle` lanes, no token lanes, no needs.
  @Test func initWithoutWrapperOrTokens() throws {
    let tree = try duetShapedTree(gradleWrapper: false)
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("parity/design-tokens.yaml"))
    #expect(try tree.duet("init").status == 0)
    let entries = try #require(try lanesJSON(tree)["lanes"] as? [[String: Any]])
    #expect(entries.compactMap { $0["name"] as? String }.contains("design-tokens") == false)
    #expect(entries.compactMap { $0["name"] as? String }.contains("theme-test") == false)
    #expect(entries.allSatisfy { ($0["needs"] as? [String]) == [] })
    #expect(entries.first { $0["name"] as? String == "kotlin-theming" }?["command"] as? String == "gradle :theming:jvmTest --console=plain")
  }

  /// Parity manifest errors are reported at their file:line:column, by every command that reads it, with exit 2.
  @Test func parityErrorsNamePositions() throws {
    let tree = try duetShapedTree()
    let text = DuetShapedTree.parityManifest.replacingOccurrences(of: "chains:", with: "chain:")
      .replacingOccurrences(of: "      template: Mocks.swifttemplate\n      sources: [src-ios", with: "      sources: [src-ios")
    try tree.write("parity/manifest.yaml", text)
    let expected = """
      parity/manifest.yaml:12:1: error: unknown top-level key 'chain'; did you mean 'chains'? (known: chains, features, mocks, presentation, replayRunner)
      parity/manifest.yaml:30:5: error: mock row 'DesignMocks': missing 'template' (the template file inside the bundle)

      """
    for command in [["lanes"], ["init"], ["verify"], ["mocks", "--check"], ["doctor"]] {
      // No toolchain on PATH, so doctor's probes cost nothing here.
      let run = try runDuet(command, in: tree.url, environment: ["PATH": tree.url.path + "/no-bin"])
      #expect(run.status == (command == ["doctor"] ? 1 : 2), "\(command)")
      if command == ["doctor"] {
        #expect(run.stdout.contains("  parity/manifest.yaml:12:1: error: unknown top-level key 'chain'; did you mean 'chains'? (known: chains, features, mocks, presentation, replayRunner) (and 1 more)\n"), "\(run.stdout)")
      } else {
        #expect(run.stderr == expected, "\(command)")
      }
    }
    #expect(!tree.exists("lanes/manifest.yaml"))
    // With a pinned manifest the parity manifest is still read, for its mock rows.
    try tree.write("lanes/manifest.yaml", "version: 1\nlanes: []\n")
    #expect(try tree.duet("lanes").stderr == expected)
  }

  /// A block the Duet mock templates wrote (`template=<file> args=<a;b>`, the bundle tag)
  /// checks as it is; `duet mocks` leaves it byte for byte; a changed row is a config finding,
  /// and one `duet mocks` will not paper over.
  @Test func duetTemplateBlocksValidate() throws {
    let tree = try duetShapedTree()
    let home = "src-ios/Packages/HomeKit/Tests/Mocks/HomeFeatureMocks.swift"
    let design = "src-ios/Packages/Design/Tests/Mocks/DesignMocks.swift"
    let homeText = try DuetShapedTree.templateBlock(
      tree: tree, bundle: "0.6.1", template: "Mocks.swifttemplate", args: ["import=HomeFeature", "testable=HomeFeature"],
      inputs: ["src-ios/Packages/HomeKit/Sources/HomeFeature/HomeFeature.swift"], body: "final class HomeFeatureMock {}\n")
    let designText = try DuetShapedTree.templateBlock(
      tree: tree, bundle: "0.6.1", template: "Mocks.swifttemplate", args: [],
      inputs: ["src-ios/Packages/Design/Sources/Design/Design.swift"], body: "final class DesignMock {}\n")
    try tree.write(home, homeText)
    try tree.write(design, designText)

    let check = try tree.duet("mocks", "--check")
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout == "duet mocks --check: 2 mock file(s) up to date\n")
    let imprint = try tree.duet("mocks")
    #expect(imprint.stdout == "duet mocks: 0 of 2 mock file(s) written, 2 already up to date\n")
    #expect(try tree.read(home) == homeText)

    // A pinned lanes/manifest.yaml with its own entry: both manifests' mocks are checked.
    try tree.write("Sources/Shell/Shell.swift", "struct Shell {}\n")
    try tree.write("Tests/ShellMocks.swift", "final class ShellMock {}\n")
    try tree.write("lanes/manifest.yaml", "version: 1\nmocks:\n  - output: Tests/ShellMocks.swift\n    sources: [Sources/Shell]\nlanes: []\n")
    #expect(try tree.duet("mocks").stdout == "wrote Tests/ShellMocks.swift (1 input(s))\nduet mocks: 1 of 3 mock file(s) written, 2 already up to date\n")
    #expect(try tree.duet("mocks", "--check").stdout == "duet mocks --check: 3 mock file(s) up to date\n")

    // The row's args change: the recorded description no longer matches the row.
    try tree.write("parity/manifest.yaml", DuetShapedTree.parityManifest.replacingOccurrences(of: "- testable=HomeFeature", with: "- testable=Home"))
    let stale = try tree.duet("mocks", "--check")
    #expect(stale.status == 1)
    #expect(stale.stdout.contains("  \(home) is stale:\n    config: the block records \"template=Mocks.swifttemplate args=import=HomeFeature;testable=HomeFeature\", the entry says \"template=Mocks.swifttemplate args=import=HomeFeature;testable=Home\"\n"))
    // duet runs no template: re-imprinting would record the new args over a body made with
    // the old ones, so it refuses, file untouched, until the file is regenerated or accepted.
    let refused = try tree.duet("mocks")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("duet mocks: refused \(home): the body was generated under config 'template=Mocks.swifttemplate args=import=HomeFeature;testable=HomeFeature', the entry now says 'template=Mocks.swifttemplate args=import=HomeFeature;testable=Home'; regenerate the file with its templates"), "\(refused.stderr)")
    #expect(try tree.read(home) == homeText)
    #expect(try tree.duet("mocks", "--check").status == 1)
    #expect(try tree.duet("mocks", "--accept-body").status == 0)
    #expect(try tree.duet("mocks", "--check").status == 0)
    try tree.write(home, homeText)
    try tree.write("parity/manifest.yaml", DuetShapedTree.parityManifest.replacingOccurrences(of: "bundle: 0.6.1", with: "bundle: 0.7.0"))
    #expect(try tree.duet("mocks").stderr.contains("the body was generated under bundle '0.6.1', the entry now says '0.7.0'"))
    try tree.write("parity/manifest.yaml", DuetShapedTree.parityManifest)
    // An input changes: the check says to regenerate with the templates, and duet will not
    // record the new input over the body the templates made from the old one.
    try tree.write(home, homeText)
    try tree.write("src-ios/Packages/HomeKit/Sources/HomeFeature/HomeFeature.swift", "public struct HomeFeature { var x = 1 }\n")
    let changed = try tree.duet("mocks", "--check")
    #expect(changed.status == 1)
    #expect(changed.stdout.contains("regenerate with the Duet mock templates and commit: \(home)\n"), "\(changed.stdout)")
    let kept = try tree.duet("mocks")
    #expect(kept.status == 1)
    #expect(kept.stderr.contains("duet mocks: refused \(home): its inputs changed since the templates wrote it"), "\(kept.stderr)")
    #expect(try tree.read(home) == homeText)
    #expect(try tree.duet("mocks", "--check").status == 1)
    try tree.write("src-ios/Packages/HomeKit/Sources/HomeFeature/HomeFeature.swift", "public struct HomeFeature {}\n")
    #expect(try tree.duet("mocks", "--check").status == 0)
    // Two entries writing one file, one in each manifest, name both places.
    try tree.write("lanes/manifest.yaml", "version: 1\nmocks:\n  - output: \(design)\n    sources: [Sources/Shell]\nlanes: []\n")
    let clash = try tree.duet("mocks", "--check")
    #expect(clash.status == 2)
    #expect(clash.stderr.contains("parity/manifest.yaml:30:5: error: mock \(design): another mocks entry (lanes/manifest.yaml:3) already writes this file"))
  }

  /// A manifest path that is a folder, or a parity manifest that is one, is an error that
  /// says so once, exit 2, and nothing is left behind.
  @Test func unwritableAndUnreadable() throws {
    let tree = try duetShapedTree()
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("lanes/manifest.yaml"), withIntermediateDirectories: true)
    let run = try tree.duet("init", "--force")
    #expect(run.status == 2)
    #expect(run.stderr == "duet init: error: cannot write lanes/manifest.yaml: Is a directory\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent("lanes").path) == ["manifest.yaml"])
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("parity/manifest.yaml"))
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("parity/manifest.yaml"), withIntermediateDirectories: true)
    let lanes = try tree.duet("lanes", "--root", ".")
    #expect(lanes.status == 2)
    #expect(lanes.stderr.contains("error: cannot read parity/manifest.yaml: Is a directory"), "\(lanes.stderr)")
  }
}
