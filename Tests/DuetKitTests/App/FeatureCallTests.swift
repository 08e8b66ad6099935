import Foundation
import Testing
@testable import DuetApp
@testable import DuetModel
@testable import DuetSupport
@testable import DuetTokens

/// `mocks`, `design-tokens`, `theme-test`, `contrast`, `lanes`, `graph`,
/// `schema` and the completions' words as calls on fixture trees.
struct FeatureCallTests {
  @Test func mocksImprintsThenChecks() throws {
    let tree = try MocksTempTree()
    _ = try tree.shell()
    let written = try mocks(MocksRequest(root: tree.url, environment: [:]))
    guard case .imprinted(let report) = written else {
      Issue.record("expected an imprint")
      return
    }
    #expect(report.lines == ["wrote Tests/Mocks/ShellMocks.swift (2 input(s))", "duet mocks: 1 of 1 mock file(s) written"])
    var check = MocksRequest(root: tree.url, environment: [:])
    check.check = true
    let checked = try mocks(check)
    #expect(checked.exitCode == 0)
    try tree.write("Sources/Shell/HomeView.swift", "struct HomeView { let changed = 1 }\n")
    #expect(try mocks(check).exitCode == 1)
    #expect(try mocks(check).printout(TextFormat(json: true)).outText.contains("\"schemaVersion\" : 2"))
  }

  /// A mock generator runs with the request's environment, not this process's.
  @Test func theGeneratorRunsWithTheRequestsEnvironment() throws {
    let tree = try MocksTempTree()
    try tree.write("Sources/A.swift", "protocol A {}\n")
    _ = try tree.manifest("""
        - output: Mocks/AMock.swift
          sources: [Sources]
          generator: "mkdir -p Mocks && printf '// %s\\\\n' \\"$DUET_CALL_TEST_WORD\\" > \\"$DUET_MOCK_OUTPUT\\""

      """)
    #expect(ProcessInfo.processInfo.environment["DUET_CALL_TEST_WORD"] == nil)
    let response = try mocks(MocksRequest(root: tree.url, environment: ["PATH": "/usr/bin:/bin", "DUET_CALL_TEST_WORD": "fromtherequest"]))
    #expect(response.exitCode == 0, "\(response.printout(TextFormat()).errText)")
    #expect(try tree.text("Mocks/AMock.swift").hasSuffix("// mock-templates:end\n// fromtherequest\n"))
  }

  @Test func designTokensWritesThenChecks() throws {
    let tree = try TokenTempTree()
    try tree.write(try TokenFixtures.configText("full"), to: TokenConfig.defaultPath)
    let config = try TokenConfigChoice.resolve(workingDirectory: tree.root, root: nil, config: nil, command: "design-tokens")
    #expect(config.configPath == TokenConfig.defaultPath)
    let written = designTokens(DesignTokensRequest(config: config))
    #expect(written.exitCode == 0)
    #expect(written.printout(TextFormat()).outText.hasPrefix("duet design-tokens: wrote 8 token file(s):\n"))
    var check = DesignTokensRequest(config: config)
    check.check = true
    #expect(designTokens(check).printout(TextFormat()).outText == "duet design-tokens --check: 8 generated token file(s) up to date\n")
  }

  /// No tree is a failure naming both markers (exit 2); a missing config fails the theme test with a diagnostic.
  @Test func themeTestNeedsAConfig() throws {
    let empty = try TemporaryFolder()
    #expect { try TokenConfigChoice.resolve(workingDirectory: empty.url, root: nil, config: nil, command: "theme-test") } throws: {
      guard let failure = $0 as? CommandFailure else { return false }
      return failure.code == 2 && failure.message.hasPrefix("duet theme-test: error: no lanes/manifest.yaml or parity/design-tokens.yaml in ")
    }
    try empty.write("lanes/manifest.yaml", "version: 1\nlanes: []\n")
    let config = try TokenConfigChoice.resolve(workingDirectory: empty.url, root: nil, config: nil, command: "theme-test")
    let response = themeTest(ThemeTestRequest(config: config))
    #expect(response.exitCode == 2)
    #expect(response.printout(TextFormat()).errText.contains("parity/design-tokens.yaml"))
  }

  @Test func contrastOfBlackOnWhite() throws {
    let response = try contrast(ContrastRequest(foreground: "#000000", background: "#FFFFFF"))
    #expect(response.printout(TextFormat()).outText.contains("21"))
    #expect(throws: UsageError.self) { _ = try contrast(ContrastRequest(foreground: "black", background: "#FFFFFF")) }
  }

  @Test func lanesGraphSchemaAndCompletionWords() throws {
    let tree = try TemporaryFolder()
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: build
          sh: echo built
          tags: [fast]
        - name: test
          sh: echo tested
          needs: [build]
      """)
    let listed = try lanes(LanesRequest(root: tree.url))
    #expect(listed.report.lanes.map(\.name) == ["build", "test"])
    #expect(listed.printout(TextFormat()).outText.hasPrefix("lanes/manifest.yaml: 2 lane(s), in run order\n"))
    let mermaid = try graph(GraphRequest(root: tree.url, format: "mermaid"))
    #expect(mermaid.text == "flowchart LR\n  n0[\"build\"]\n  n1[\"test\"]\n  n0 --> n1\n")
    #expect(throws: UsageError.self) { try GraphRequest.checkFormat("svg") }
    #expect(manifestSchema().text.contains("\"$schema\""))
    #expect(completionWords(.lanes, root: tree.url, environment: testEnvironment) == ["build", "test"])
    #expect(completionWords(.tags, root: tree.url, environment: testEnvironment) == ["fast"])
  }
}
