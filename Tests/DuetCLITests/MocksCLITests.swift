import Foundation
import Testing

@Suite("duet mocks (the command line, in-process)")
struct MocksCLITests {
  func shellTree() throws -> FixtureTree {
    let tree = try FixtureTree()
    try tree.write("lanes/manifest.yaml", """
      version: 1
      mocks:
        - output: Tests/Mocks/HomeShellMocks.swift
          sources: [Sources/HomeShell]
      lanes:
        - name: mocks
          run: mocks --check

      """)
    try tree.write("Sources/HomeShell/HomeView.swift", "struct HomeView {}\n")
    try tree.write("Tests/Mocks/HomeShellMocks.swift", "final class HomeViewMock {}\n")
    return tree
  }

  /// The whole loop at the command line: no block is stale, `duet mocks` imprints, the check passes, an edit is stale again.
  @Test func imprintAndCheck() throws {
    let tree = try shellTree()
    let first = try tree.duet("mocks", "--check")
    #expect(first.status == 1)
    #expect(first.stdout == "duet mocks --check: FAIL\n  Tests/Mocks/HomeShellMocks.swift is stale:\n    block: none — the file has no fingerprint block at its top\nregenerate and commit: duet mocks\n")

    let written = try tree.duet("mocks")
    #expect(written.status == 0)
    #expect(written.stdout == "wrote Tests/Mocks/HomeShellMocks.swift (1 input(s))\nduet mocks: 1 of 1 mock file(s) written\n")
    #expect(try tree.read("Tests/Mocks/HomeShellMocks.swift").hasSuffix("// mock-templates:end\nfinal class HomeViewMock {}\n"))

    let clean = try tree.duet("mocks", "--check")
    #expect(clean.status == 0)
    #expect(clean.stdout == "duet mocks --check: 1 mock file(s) up to date\n")

    try tree.write("Sources/HomeShell/HomeView.swift", "struct HomeView { let tint = 1 }\n")
    let stale = try tree.duet("mocks", "--check")
    #expect(stale.status == 1)
    #expect(stale.stdout.contains("    stale: Sources/HomeShell/HomeView.swift — content differs from the recorded hash\n"))
    #expect(try tree.duet("mocks").status == 0)
    #expect(try tree.duet("mocks", "--check").status == 0)
  }

  /// A hand-edited body is refused with exit 1 and the file named on stderr; `--accept-body` keeps the edit.
  @Test func refusedBody() throws {
    let tree = try shellTree()
    _ = try tree.duet("mocks")
    try tree.write("Tests/Mocks/HomeShellMocks.swift", try tree.read("Tests/Mocks/HomeShellMocks.swift") + "// edit\n")
    let refused = try tree.duet("mocks")
    #expect(refused.status == 1)
    #expect(refused.stderr.hasPrefix("duet mocks: refused Tests/Mocks/HomeShellMocks.swift: the body was edited after imprinting"))
    let accepted = try tree.duet("mocks", "--accept-body")
    #expect(accepted.status == 0)
    #expect(try tree.duet("mocks", "--check").status == 0)
  }

  /// A missing source root and a missing output are errors on stderr, compiler-style, naming them; exit 2, no stack trace.
  @Test func errorsNameTheFile() throws {
    let tree = try shellTree()
    try tree.write("lanes/manifest.yaml", """
      version: 1
      mocks:
        - output: Tests/Mocks/HomeShellMocks.swift
          sources: [Sources/Gone]
        - output: Tests/Mocks/Absent.swift
          sources: [Sources/HomeShell]

      """)
    let result = try tree.duet("mocks")
    #expect(result.status == 2)
    #expect(result.stderr.contains("lanes/manifest.yaml:3:5: error: mock Tests/Mocks/HomeShellMocks.swift: source root 'Sources/Gone' does not exist\n"))
    #expect(result.stderr.contains("lanes/manifest.yaml:5:5: error: mock Tests/Mocks/Absent.swift: Tests/Mocks/Absent.swift does not exist and the entry names no generator to make it\n"))
    let check = try tree.duet("mocks", "--check")
    #expect(check.status == 2)
    #expect(check.stderr.contains("source root 'Sources/Gone' does not exist"))
  }

  /// `--json` carries schemaVersion 2 and each finding as kind, path and message.
  @Test func json() throws {
    let tree = try shellTree()
    _ = try tree.duet("mocks")
    try tree.write("Sources/HomeShell/Badge.swift", "struct Badge {}\n")
    let result = try tree.duet("mocks", "--check", "--json")
    #expect(result.status == 1)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 2)
    let files = try #require(object["files"] as? [[String: Any]])
    let findings = try #require(files.first?["findings"] as? [[String: Any]])
    #expect(findings.first?["kind"] as? String == "unlisted")
    #expect(findings.first?["path"] as? String == "Sources/HomeShell/Badge.swift")
  }

  /// `--check` with `--accept-body` is a usage error, and `--root` points at a tree from elsewhere.
  @Test func usageAndRoot() throws {
    let tree = try shellTree()
    #expect(try tree.duet("mocks", "--check", "--accept-body").status == 2)
    let elsewhere = try FixtureTree()
    let result = try elsewhere.duet("mocks", "--root", tree.url.path)
    #expect(result.status == 0)
    #expect(result.stdout.contains("wrote Tests/Mocks/HomeShellMocks.swift"))
  }

  /// `duet verify` runs the built-in lane `run: mocks --check` in-process: it fails on a stale mock and passes once imprinted.
  @Test func verifyLane() throws {
    let tree = try shellTree()
    let stale = try tree.duet("verify")
    #expect(stale.status == 1)
    #expect(try tree.duet("mocks").status == 0)
    let passed = try tree.duet("verify")
    #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
    #expect(passed.stdout.contains("duet verify: PASS"))
  }
}
