import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("duet mocks (imprint)")
struct MockImprintTests {
  /// A file without a block gets one, its whole content kept as the body, and the block records inputs, bundle and config.
  @Test func firstImprintKeepsTheContentAsBody() throws {
    let tree = try MocksTempTree()
    let manifest = try tree.shell()
    let report = MockImprint.run(manifest, root: tree.url)
    #expect(report.exitCode == 0)
    #expect(report.lines == ["wrote Tests/Mocks/ShellMocks.swift (2 input(s))", "duet mocks: 1 of 1 mock file(s) written"])
    let text = try tree.text("Tests/Mocks/ShellMocks.swift")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0] == "// mock-templates:fingerprint v1")
    #expect(lines[1] == "// bundle: none")
    #expect(lines[2] == "// config: sha256:\(Digest.sha256("generator=none")) generator=none")
    #expect(lines[3].hasSuffix(" Sources/Shell/HomeView.swift"))
    #expect(lines[4].hasSuffix(" Sources/Shell/Nested/HomeState.swift"))
    #expect(lines[5] == "// body: sha256:\(Digest.sha256("final class HomeViewMock {}\n"))")
    #expect(lines[6] == "// mock-templates:end")
    #expect(lines[7...].joined(separator: "\n") == "final class HomeViewMock {}\n")
  }

  /// Re-imprinting after an input changed rewrites the block and keeps every body byte, even bytes that are not UTF-8.
  @Test func bodySurvivesReimprinting() throws {
    let tree = try MocksTempTree()
    let manifest = try tree.shell()
    let body: [UInt8] = Array("final class Mock {\r\n  let s = \"é\"\n}".utf8) + [0xFF, 0x00, 0xC3] + Array("\n// no newline at end".utf8)
    try tree.write("Tests/Mocks/ShellMocks.swift", bytes: body)
    _ = MockImprint.run(manifest, root: tree.url)
    try tree.write("Sources/Shell/HomeView.swift", "struct HomeView { let changed = 1 }\n")
    let second = MockImprint.run(manifest, root: tree.url)
    #expect(second.files.map(\.changed) == [true])
    let bytes = try tree.bytes("Tests/Mocks/ShellMocks.swift")
    guard case .block(let block, let start) = FingerprintParser.parse(bytes) else {
      Issue.record("no block after imprinting")
      return
    }
    #expect(Array(bytes[start...]) == body)
    #expect(block.bodyHash == Digest.sha256(Data(body)))
    #expect(MockCheck.run(manifest, root: tree.url).exitCode == 0)
  }

  /// Imprinting an up-to-date file changes nothing: the file is not rewritten and nothing is printed as written.
  @Test func unchangedFileIsNotTouched() throws {
    let tree = try MocksTempTree()
    let manifest = try tree.shell()
    _ = MockImprint.run(manifest, root: tree.url)
    let before = try FileManager.default.attributesOfItem(atPath: tree.path("Tests/Mocks/ShellMocks.swift"))[.modificationDate] as? Date
    let again = MockImprint.run(manifest, root: tree.url)
    let after = try FileManager.default.attributesOfItem(atPath: tree.path("Tests/Mocks/ShellMocks.swift"))[.modificationDate] as? Date
    #expect(again.files.map(\.changed) == [false])
    #expect(again.lines == ["duet mocks: 0 of 1 mock file(s) written, 1 already up to date"])
    #expect(before == after)
  }

  /// A body edited by hand is refused (exit 1, naming the file, the file untouched) unless `acceptBody`, which imprints it.
  @Test func handEditedBodyIsRefused() throws {
    let tree = try MocksTempTree()
    let manifest = try tree.shell()
    _ = MockImprint.run(manifest, root: tree.url)
    let edited = try tree.text("Tests/Mocks/ShellMocks.swift") + "// by hand\n"
    try tree.write("Tests/Mocks/ShellMocks.swift", edited)
    let refused = MockImprint.run(manifest, root: tree.url)
    #expect(refused.exitCode == 1)
    #expect(refused.refused.map(\.output) == ["Tests/Mocks/ShellMocks.swift"])
    #expect(refused.refused[0].line.text.contains("--accept-body"))
    #expect(try tree.text("Tests/Mocks/ShellMocks.swift") == edited)

    let accepted = MockImprint.run(manifest, root: tree.url, options: .init(acceptBody: true))
    #expect(accepted.exitCode == 0)
    #expect(try tree.text("Tests/Mocks/ShellMocks.swift").hasSuffix("final class HomeViewMock {}\n// by hand\n"))
    #expect(MockCheck.run(manifest, root: tree.url).exitCode == 0)
  }

  /// An unreadable block is refused without `acceptBody`; with it, the bytes after the block become the body.
  @Test func malformedBlockNeedsAcceptBody() throws {
    let tree = try MocksTempTree()
    let manifest = try tree.shell()
    try tree.write("Tests/Mocks/ShellMocks.swift", "// mock-templates:fingerprint v1\n// bundle: none\ngarbage\n// mock-templates:end\nclass Kept {}\n")
    #expect(MockImprint.run(manifest, root: tree.url).exitCode == 1)
    #expect(MockImprint.run(manifest, root: tree.url, options: .init(acceptBody: true)).exitCode == 0)
    #expect(try tree.text("Tests/Mocks/ShellMocks.swift").hasSuffix("// mock-templates:end\nclass Kept {}\n"))
  }

  /// A missing output with no generator is an error naming it (exit 2), and nothing is created.
  @Test func missingOutputWithoutGenerator() throws {
    let tree = try MocksTempTree()
    let manifest = try tree.shell()
    try FileManager.default.removeItem(atPath: tree.path("Tests/Mocks/ShellMocks.swift"))
    let report = MockImprint.run(manifest, root: tree.url)
    #expect(report.exitCode == 2)
    #expect(report.errors.map(\.message) == ["Tests/Mocks/ShellMocks.swift does not exist and the entry names no generator to make it"])
    #expect(!FileManager.default.fileExists(atPath: tree.path("Tests/Mocks/ShellMocks.swift")))
  }

  /// A missing source root stops its entry before anything is written (exit 2).
  @Test func missingSourceRoot() throws {
    let tree = try MocksTempTree()
    try tree.write("M.swift", "class M {}\n")
    let manifest = try tree.manifest("  - output: M.swift\n    sources: [Nowhere]\n")
    let report = MockImprint.run(manifest, root: tree.url)
    #expect(report.exitCode == 2)
    #expect(report.errors.map(\.message) == ["source root 'Nowhere' does not exist"])
    #expect(try tree.text("M.swift") == "class M {}\n")
  }

  /// The generator runs in the tree root through /bin/sh, writes the body, and its bundle and command are recorded.
  @Test func generatorWritesTheBody() throws {
    let tree = try MocksTempTree()
    try tree.write("Sources/A.swift", "protocol A {}\n")
    let manifest = try tree.manifest("""
        - output: Mocks/AMock.swift
          sources: [Sources]
          generator: "mkdir -p Mocks && printf 'final class AMock: A {}\\\\n' > \\"$DUET_MOCK_OUTPUT\\""
          bundle: shellgen 1

      """)
    let report = MockImprint.run(manifest, root: tree.url)
    #expect(report.exitCode == 0, "\(report.text)")
    #expect(report.files.map(\.generated) == [true])
    let text = try tree.text("Mocks/AMock.swift")
    #expect(text.hasPrefix("// mock-templates:fingerprint v1\n// bundle: shellgen 1\n// config: sha256:"))
    #expect(text.contains(" generator=mkdir -p Mocks && printf"))
    #expect(text.hasSuffix("// mock-templates:end\nfinal class AMock: A {}\n"))
    #expect(MockCheck.run(manifest, root: tree.url).exitCode == 0)
    // Running again regenerates the same body, so the file is unchanged.
    #expect(MockImprint.run(manifest, root: tree.url).files.map(\.changed) == [false])
  }

  /// A failing generator is an error with its exit code and last output, and the old file stays as it was.
  @Test func failingGenerator() throws {
    let tree = try MocksTempTree()
    try tree.write("Sources/A.swift", "protocol A {}\n")
    try tree.write("M.swift", "old\n")
    let manifest = try tree.manifest("  - output: M.swift\n    sources: [Sources]\n    generator: echo broken template; exit 3\n")
    let report = MockImprint.run(manifest, root: tree.url)
    #expect(report.exitCode == 2)
    #expect(report.errors.first?.message == "the generator 'echo broken template; exit 3' exited with 3; its last output:\nbroken template\n")
    #expect(try tree.text("M.swift") == "old\n")
  }

  /// The generator runner can be replaced, so the write path is testable without a shell.
  @Test func generatorThatWritesNothing() throws {
    let tree = try MocksTempTree()
    try tree.write("Sources/A.swift", "protocol A {}\n")
    let manifest = try tree.manifest("  - output: M.swift\n    sources: [Sources]\n    generator: noop\n")
    var options = MockImprint.Options()
    options.generator = { _, _, _ in MockGenerator.Outcome(exitCode: 0, signal: nil, output: "") }
    let report = MockImprint.run(manifest, root: tree.url, options: options)
    #expect(report.errors.first?.message.contains("did not write M.swift") == true)
  }

  /// Two entries that write one file: the second is an error naming the first's line.
  @Test func duplicateOutputs() throws {
    let tree = try MocksTempTree()
    try tree.write("Sources/A.swift", "a\n")
    try tree.write("M.swift", "m\n")
    let manifest = try tree.manifest("  - output: M.swift\n    sources: [Sources]\n  - output: ./M.swift\n    sources: [Sources]\n")
    let report = MockImprint.run(manifest, root: tree.url)
    #expect(report.files.count == 1)
    #expect(report.errors.map(\.message) == ["another mocks entry (line 3) already writes this file"])
  }

  /// A Duet-shaped block (`template=...`) keeps its description and bundle when the entry names neither, so it still checks.
  @Test func templateShapedBlockKeepsItsConfig() throws {
    let tree = try MocksTempTree()
    try tree.write("Sources/A.swift", "a\n")
    let block = FingerprintBlock(bundle: "duet-mock-templates 1.4", description: "template=T.swifttemplate args=A;B", inputs: [], bodyHash: Digest.sha256("body\n"))
    try tree.write("M.swift", block.rendered() + "body\n")
    let manifest = try tree.manifest("  - output: M.swift\n    sources: [Sources]\n")
    #expect(MockCheck.run(manifest, root: tree.url).files.first?.findings.map(\.line) == ["unlisted: Sources/A.swift — under a source root, not in the block"])
    #expect(MockImprint.run(manifest, root: tree.url).exitCode == 0)
    let text = try tree.text("M.swift")
    #expect(text.contains("// bundle: duet-mock-templates 1.4\n// config: sha256:\(Digest.sha256("template=T.swifttemplate args=A;B")) template=T.swifttemplate args=A;B\n"))
    #expect(MockCheck.run(manifest, root: tree.url).exitCode == 0)
  }
}
