import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("duet mocks --check")
struct MockCheckTests {
  func imprinted(_ tree: MocksTempTree) throws -> Manifest {
    let manifest = try tree.shell()
    let report = MockImprint.run(manifest, root: tree.url)
    #expect(report.exitCode == 0, "\(report.text)")
    return manifest
  }

  func findings(_ manifest: Manifest, _ tree: MocksTempTree) -> [String] {
    MockCheck.run(manifest, root: tree.url).files.flatMap { $0.findings.map(\.line.text) }
  }

  /// A block written by hand in the exact format, hashes from `sha256sum`, validates, including a Duet-shaped template row.
  @Test func handwrittenFixtureValidates() throws {
    let root = MocksFixtures.folder.appendingPathComponent("handwritten")
    let manifest = try ManifestLoader.load(root: root, builtins: BuiltinSet.standard.vocabulary)
    let report = MockCheck.run(manifest, root: root)
    #expect(report.exitCode == 0, "\(report.text)")
    #expect(report.files.map(\.inputCount) == [3, 1])
    #expect(report.lines == ["duet mocks --check: 2 mock file(s) up to date"])
  }

  /// The bundled example's mock file, imprinted by `duet mocks`, is up to date with its shell.
  @Test func foyerExampleIsUpToDate() throws {
    let root = MocksFixtures.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/Foyer")
    let manifest = try ManifestLoader.load(root: root, builtins: BuiltinSet.standard.vocabulary)
    let report = MockCheck.run(manifest, root: root)
    #expect(report.exitCode == 0, "\(report.text)refresh it: duet mocks --root Examples/Foyer")
    #expect(report.files.map(\.inputCount) == [2])
  }

  /// duet's input hashes agree with `sha256sum`, and the inputs are the visible `.swift` files named from the tree root.
  @Test func inputsAgreeWithSha256sum() throws {
    let tree = try MocksTempTree()
    let manifest = try tree.shell()
    let inputs = try MockInputs.collect(manifest.mocks[0], root: tree.url)
    #expect(inputs.map(\.path) == ["Sources/Shell/HomeView.swift", "Sources/Shell/Nested/HomeState.swift"])
    for input in inputs {
      if let system = mocksSystemSHA256(tree.path(input.path)) { #expect(input.sha256 == system) }
    }
  }

  /// An input named with any line break (NEL, LS, PS, VT and FF as well as
  /// LF and CR) is refused, as a multi-line `generator` or `bundle` is: raw in
  /// its `// input:` line, an editor or a diff shows the rest of the name as a
  /// line of code (`func pwn() {}`) that the compiler reads as comment.
  @Test func everyLineBreakInAnInputNameIsRefused() throws {
    for separator in ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}"] {
      let tree = try MocksTempTree()
      try tree.write("Sources/S/a\(separator)func pwn() {}.swift", "x")
      let entry = "  - output: M.swift\n    sources: [Sources/S]\n"
      #expect(throws: MockError.self, "\(separator.unicodeScalars.map(\.value))") {
        try MockInputs.collect(try tree.manifest(entry).mocks[0], root: tree.url)
      }
    }
  }

  /// The fingerprint does not depend on the order files were created in, and one changed byte changes it.
  @Test func fingerprintIsOrderFreeAndByteSensitive() throws {
    let names = (0..<30).map { "Sources/S/F\($0 % 7)/\($0).swift" }
    let first = try MocksTempTree(), second = try MocksTempTree()
    for name in names { try first.write(name, name) }
    for name in names.reversed() { try second.write(name, name) }
    let entry = "  - output: M.swift\n    sources: [Sources/S]\n"
    let a = try MockInputs.collect(try first.manifest(entry).mocks[0], root: first.url)
    let b = try MockInputs.collect(try second.manifest(entry).mocks[0], root: second.url)
    #expect(a == b)
    try second.write(names[11], names[11] + " ")
    let c = try MockInputs.collect(try second.manifest(entry).mocks[0], root: second.url)
    #expect(a != c)
    #expect(zip(a, c).filter { $0 != $1 }.map(\.0.path) == [names[11]])
  }

  /// A freshly imprinted tree is up to date, with the summary line of DESIGN §8.
  @Test func upToDate() throws {
    let tree = try MocksTempTree()
    let manifest = try imprinted(tree)
    let report = MockCheck.run(manifest, root: tree.url)
    #expect(report.exitCode == 0)
    #expect(report.lines == ["duet mocks --check: 1 mock file(s) up to date"])
  }

  /// An edited, an added and a removed input, and an edited body, each give their line, in DESIGN §8's order, and exit 1.
  @Test func staleUnlistedMissingBody() throws {
    let tree = try MocksTempTree()
    let manifest = try imprinted(tree)
    try tree.write("Sources/Shell/HomeView.swift", "struct HomeView { var edited = true }\n")
    try tree.write("Sources/Shell/Badge.swift", "struct Badge {}\n")
    try FileManager.default.removeItem(atPath: tree.path("Sources/Shell/Nested/HomeState.swift"))
    try tree.write("Tests/Mocks/ShellMocks.swift", try tree.text("Tests/Mocks/ShellMocks.swift") + "// hand edit\n")
    let report = MockCheck.run(manifest, root: tree.url)
    #expect(report.exitCode == 1)
    #expect(report.lines == [
      "duet mocks --check: FAIL",
      "  Tests/Mocks/ShellMocks.swift is stale:",
      "    stale: Sources/Shell/HomeView.swift — content differs from the recorded hash",
      "    unlisted: Sources/Shell/Badge.swift — under a source root, not in the block",
      "    missing: Sources/Shell/Nested/HomeState.swift — in the block, gone from disk",
      "    body: hash differs — the output was edited after imprinting",
      "regenerate and commit: duet mocks",
    ])
  }

  /// A hidden file, a non-matching file and a symbolic link added under a root change nothing.
  @Test func hiddenFilesAndLinksAreNotInputs() throws {
    let tree = try MocksTempTree()
    let manifest = try imprinted(tree)
    try tree.write("Sources/Shell/.Another.swift", "hidden\n")
    try tree.write("Sources/Shell/.git/x.swift", "hidden\n")
    try tree.write("Sources/Shell/extra.kt", "class K\n")
    try tree.write("Outside/Secret.swift", "secret\n")
    try FileManager.default.createSymbolicLink(atPath: tree.path("Sources/Shell/Secret.swift"), withDestinationPath: tree.path("Outside/Secret.swift"))
    try FileManager.default.createSymbolicLink(atPath: tree.path("Sources/Shell/Out"), withDestinationPath: tree.path("Outside"))
    #expect(findings(manifest, tree) == [])
  }

  /// An edited description, a description that no longer matches the entry, and a changed bundle are `config:` lines.
  @Test func configFindings() throws {
    let tree = try MocksTempTree()
    var manifest = try imprinted(tree)
    let text = try tree.text("Tests/Mocks/ShellMocks.swift")
    try tree.write("Tests/Mocks/ShellMocks.swift", text.replacingOccurrences(of: " generator=none", with: " generator=sourcery"))
    #expect(findings(manifest, tree) == [
      "config: hash differs — the description was edited after imprinting",
      "config: the block records \"generator=sourcery\", the entry says \"generator=none\"",
    ])
    try tree.write("Tests/Mocks/ShellMocks.swift", text)
    manifest.mocks[0].bundle = "2.0"
    #expect(findings(manifest, tree) == ["config: the block records bundle \"none\", the entry says \"2.0\""])
  }

  /// A file without a block, an unreadable block, a truncated file and a missing output are findings (exit 1), not crashes.
  @Test func unreadableBlocksAreFindings() throws {
    let tree = try MocksTempTree()
    let manifest = try imprinted(tree)
    let text = try tree.text("Tests/Mocks/ShellMocks.swift")

    try tree.write("Tests/Mocks/ShellMocks.swift", "final class HomeViewMock {}\n")
    #expect(findings(manifest, tree) == ["block: none — the file has no fingerprint block at its top"])

    try tree.write("Tests/Mocks/ShellMocks.swift", text.replacingOccurrences(of: "// body: sha256:", with: "// body: md5:"))
    let nonsense = findings(manifest, tree)
    #expect(nonsense.count == 1 && nonsense[0].hasPrefix("block: unreadable — line 6: expected"), "\(nonsense)")

    try tree.write("Tests/Mocks/ShellMocks.swift", String(text.prefix(120)))
    let truncated = findings(manifest, tree)
    #expect(truncated.count == 1 && truncated[0].hasPrefix("block: unreadable — line 3"), "\(truncated)")

    try FileManager.default.removeItem(atPath: tree.path("Tests/Mocks/ShellMocks.swift"))
    #expect(findings(manifest, tree) == ["output: the file does not exist"])
    #expect(MockCheck.run(manifest, root: tree.url).exitCode == 1)
  }

  /// A missing source root is an error naming it and the entry's manifest line (exit 2), and other entries are still checked.
  @Test func missingSourceRootIsAnError() throws {
    let tree = try MocksTempTree()
    _ = try imprinted(tree)
    let manifest = try tree.manifest("""
        - output: Tests/Mocks/ShellMocks.swift
          sources: [Sources/Shell]
        - output: Tests/Mocks/Other.swift
          sources: [Sources/Gone]

      """)
    let report = MockCheck.run(manifest, root: tree.url)
    #expect(report.exitCode == 2)
    #expect(report.files.map(\.output) == ["Tests/Mocks/ShellMocks.swift"])
    #expect(report.errors.map(\.diagnostic.description) == ["lanes/manifest.yaml:5:5: error: mock Tests/Mocks/Other.swift: source root 'Sources/Gone' does not exist"])
  }

  /// A source root that is a link out of the tree, a root with `..`, and an output through a link are refused with exit 2.
  @Test func pathsThatLeaveTheTree() throws {
    let tree = try MocksTempTree()
    let outside = try MocksTempTree()
    try outside.write("Secret.swift", "secret\n")
    try FileManager.default.createSymbolicLink(atPath: tree.path("Linked"), withDestinationPath: outside.url.path)
    try FileManager.default.createSymbolicLink(atPath: tree.path("Mocks"), withDestinationPath: outside.url.path)
    try tree.write("Sources/A.swift", "a\n")
    let manifest = try tree.manifest("""
        - output: M1.swift
          sources: [Linked]
        - output: M2.swift
          sources: [../x]
        - output: Mocks/M3.swift
          sources: [Sources]

      """)
    let report = MockCheck.run(manifest, root: tree.url)
    #expect(report.exitCode == 2)
    let messages = report.errors.map(\.message)
    #expect(messages.count == 3)
    #expect(messages[0].contains("leads out of the tree through a symbolic link"))
    #expect(messages[1].contains("must be a folder inside the tree"))
    #expect(messages[2].contains("inside the tree"))
  }

  /// An output that cannot be read (here a folder) is an error naming it, exit 2.
  @Test func unreadableOutputIsAnError() throws {
    let tree = try MocksTempTree()
    try tree.write("Sources/A.swift", "a\n")
    try FileManager.default.createDirectory(atPath: tree.path("M.swift"), withIntermediateDirectories: true)
    let manifest = try tree.manifest("  - output: M.swift\n    sources: [Sources]\n")
    let report = MockCheck.run(manifest, root: tree.url)
    #expect(report.exitCode == 2)
    #expect(report.errors.first?.message == "cannot read M.swift: Is a directory")
  }

  /// An input without read permission is an error naming it (root reads everything, so this runs only as another user).
  @Test(.enabled(if: getuid() != 0)) func unreadableInputIsAnError() throws {
    let tree = try MocksTempTree()
    let manifest = try imprinted(tree)
    chmod(tree.path("Sources/Shell/HomeView.swift"), 0)
    defer { chmod(tree.path("Sources/Shell/HomeView.swift"), 0o644) }
    let report = MockCheck.run(manifest, root: tree.url)
    #expect(report.exitCode == 2)
    #expect(report.errors.first?.message == "cannot read Sources/Shell/HomeView.swift: Permission denied")
  }

  /// `include` can ask for Kotlin sources, and several roots are merged into one sorted list.
  @Test func includeAndSeveralRoots() throws {
    let tree = try MocksTempTree()
    try tree.write("b/Z.kt", "z")
    try tree.write("a/y.kt", "y")
    try tree.write("a/x.swift", "x")
    let manifest = try tree.manifest("  - output: M.kt\n    sources: [b, a, a]\n    include: ['**/*.kt']\n")
    #expect(try MockInputs.paths(manifest.mocks[0], root: tree.url) == ["a/y.kt", "b/Z.kt"])
  }

  /// The built-in lane gives the same text and exit code as the check itself.
  @Test func builtinLane() throws {
    let tree = try MocksTempTree()
    _ = try imprinted(tree)
    let lane = try #require(BuiltinSet.standard.lane(named: "mocks"))
    #expect(lane.options == ["--check"])
    let passed = lane.run(BuiltinContext(tree: tree.url, arguments: ["--check"], vocabulary: BuiltinSet.standard.vocabulary, environment: testEnvironment))
    #expect(passed.exitCode == 0)
    #expect(passed.output == "duet mocks --check: 1 mock file(s) up to date\n")
    try tree.write("Sources/Shell/New.swift", "struct New {}\n")
    let failed = lane.run(BuiltinContext(tree: tree.url, arguments: ["--check"], vocabulary: BuiltinSet.standard.vocabulary, environment: testEnvironment))
    #expect(failed.exitCode == 1)
    #expect(failed.output.contains("unlisted: Sources/Shell/New.swift"))
  }
}
