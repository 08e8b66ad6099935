import Foundation
import Testing

@Suite("README transcripts of help, the sh: hint, unknown lanes and init (the binary)")
struct ReadmeTranscriptTests {
  static let readme: String = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
  }()

  /// The lines README shows after `$ command` (the first such transcript holding
  /// `containing`), up to the next prompt or the end of the block.
  func transcript(_ command: String, containing: String = "") throws -> String {
    let lines = Self.readme.components(separatedBy: "\n")
    for (index, line) in lines.enumerated() where line == "$ " + command {
      let body = lines[(index + 1)...].prefix { !$0.hasPrefix("$ ") && $0 != "```" }.joined(separator: "\n") + "\n"
      if containing.isEmpty || body.contains(containing) { return body }
    }
    Issue.record("README has no '$ \(command)' showing '\(containing)'")
    return ""
  }

  /// `$ duet help logs` in README is what the binary prints.
  @Test func helpLogs() throws {
    let run = try FixtureTree().duet("help", "logs")
    #expect(run.stdout == (try transcript("duet help logs")))
  }

  /// The unquoted `sh:` hint and the unknown-lane suggestion in README are what the binary prints.
  @Test func errors() throws {
    let lint = "version: 1\nlanes:\n  - name: lint\n    sh: grep -q TODO src || echo \"clean: no TODO\"\n"
    let broken = try FixtureTree(manifest: lint)
    #expect(try broken.duet("verify").stderr == (try transcript("duet verify", containing: "not valid YAML")))

    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: lint, sh: \"true\"}\n  - {name: kotlin, sh: echo compiled}\n")
    #expect(try tree.duet("logs", "kotln").stderr == (try transcript("duet logs kotln")))
  }
}
