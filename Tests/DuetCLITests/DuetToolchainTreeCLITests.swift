import Foundation
import Testing
@testable import DuetKit

@Suite("A tree the Duet toolchain made (the binary)")
struct DuetToolchainTreeCLITests {
  func duetShapedTree() throws -> FixtureTree {
    let tree = try FixtureTree()
    try DuetShapedTree.write(into: tree)
    return tree
  }

  /// A parity row listing its args out of order checks against the block the templates wrote
  /// (they sort the args); a changed arg is still a config finding.
  @Test func unsortedArgsCheckAsTheTemplatesWroteThem() throws {
    let tree = try duetShapedTree()
    // Swap the two args: the row now lists them out of byte order.
    let unsorted = DuetShapedTree.parityManifest
      .replacingOccurrences(of: "- import=HomeFeature", with: "- SWAP")
      .replacingOccurrences(of: "- testable=HomeFeature", with: "- import=HomeFeature")
      .replacingOccurrences(of: "- SWAP", with: "- testable=HomeFeature")
    #expect(unsorted != DuetShapedTree.parityManifest)
    try tree.write("parity/manifest.yaml", unsorted)
    let home = "src-ios/Packages/HomeKit/Tests/Mocks/HomeFeatureMocks.swift"
    let homeText = try DuetShapedTree.templateBlock(
      tree: tree, bundle: "0.6.1", template: "Mocks.swifttemplate", args: ["testable=HomeFeature", "import=HomeFeature"],
      inputs: ["src-ios/Packages/HomeKit/Sources/HomeFeature/HomeFeature.swift"], body: "final class HomeFeatureMock {}\n")
    #expect(homeText.contains(" args=import=HomeFeature;testable=HomeFeature\n"))
    try tree.write(home, homeText)
    let design = "src-ios/Packages/Design/Tests/Mocks/DesignMocks.swift"
    try tree.write(design, try DuetShapedTree.templateBlock(
      tree: tree, bundle: "0.6.1", template: "Mocks.swifttemplate", args: [],
      inputs: ["src-ios/Packages/Design/Sources/Design/Design.swift"], body: "final class DesignMock {}\n"))

    let check = try tree.duet("mocks", "--check")
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout == "duet mocks --check: 2 mock file(s) up to date\n")
    #expect(try tree.duet("mocks").status == 0)
    #expect(try tree.read(home) == homeText)

    try tree.write("parity/manifest.yaml", unsorted.replacingOccurrences(of: "- testable=HomeFeature", with: "- testable=Home"))
    let stale = try tree.duet("mocks", "--check")
    #expect(stale.status == 1)
    #expect(stale.stdout.contains("the entry says \"template=Mocks.swifttemplate args=import=HomeFeature;testable=Home\""), "\(stale.stdout)")
  }

  /// With `contrast:` and `themes:` in parity/theme-test.yaml, the token config keeps to the engine's
  /// grammar, `duet theme-test` reads the settings from there, and a hand-written high-contrast
  /// mapping is never duplicated by a generated one.
  @Test func themeTestSettingsBesideTheConfig() throws {
    let tree = try FixtureTree()
    let foyer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/Foyer/parity/design-tokens.yaml")
    let text = try String(contentsOf: foyer, encoding: .utf8)
    let cut = try #require(text.range(of: "contrast:\n"))
    try tree.write("parity/design-tokens.yaml", String(text[..<cut.lowerBound]))
    try tree.write("parity/theme-test.yaml", "version: 1\n" + String(text[cut.lowerBound...]))
    let handWritten = "src-ios/Libraries/FoyerKit/Sources/Theming/HighContrastTheme.swift"
    try tree.write(handWritten, "// the team's own high-contrast mapping\n")

    let write = try tree.duet("design-tokens")
    #expect(write.status == 0, "\(write.stderr)")
    #expect(write.lines.first == "duet design-tokens: wrote 6 token file(s):")
    #expect(!write.stdout.contains("HighContrast"))
    let theme = try tree.duet("theme-test")
    #expect(theme.status == 0, "\(theme.stdout)\(theme.stderr)")
    #expect(theme.stdout.contains("highContrast"), "\(theme.stdout)")
    #expect(try tree.duet("design-tokens", "--check").status == 0)
    #expect(try tree.read(handWritten) == "// the team's own high-contrast mapping\n")
  }
}
