import Foundation
import Testing

/// The binary in a pseudo-terminal (`script`), where the status line is drawn.
@Suite("duet verify on a terminal (the binary in a pseudo-terminal)")
struct TerminalCLITests {
  /// What `duet verify` writes to a terminal whose `TERM` is `term`.
  func verifyOnTerminal(_ tree: FixtureTree, term: String) throws -> String {
    let command = "TERM=\(term) '\(duetBinary.path)' verify"
    let quoted = "'" + command.replacingOccurrences(of: "'", with: "'\\''") + "'"
    #if os(Linux)
    let line = "script -qec \(quoted) /dev/null"
    #else
    let line = "script -q /dev/null sh -c \(quoted)"
    #endif
    let result = try shell(line, in: tree.url)
    #expect(result.status == 0, "\(result.output)")
    return result.output
  }

  /// On `TERM=dumb` (no cursor control) the status line is never drawn, so no
  /// `ESC[K` and no colour reach the terminal; on `TERM=xterm` the same run
  /// draws and clears it, which shows the terminal is one.
  @Test func dumbTerminalGetsNoCursorControl() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: slow, sh: \"sleep 0.8\"}\n")
    let xterm = try verifyOnTerminal(tree, term: "xterm")
    #expect(xterm.contains("\u{1B}[K") && xterm.contains("running: slow"), "\(xterm.debugDescription)")
    let dumb = try verifyOnTerminal(tree, term: "dumb")
    #expect(!dumb.contains("\u{1B}"), "\(dumb.debugDescription)")
    #expect(!dumb.contains("running: slow"))
    #expect(dumb.contains("duet verify: PASS (1 passed)"), "\(dumb.debugDescription)")
  }
}
