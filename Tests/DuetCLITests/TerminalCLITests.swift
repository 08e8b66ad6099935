import Foundation
import Testing
@testable import duet

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

  /// Issue 39, item 18: a status line drawn on a wide terminal that is then
  /// made narrow wraps over several rows; clearing it goes back to its first
  /// row and erases everything below, so no stale row is left.
  @Test func aNarrowedTerminalLeavesNoStaleRows() throws {
    #expect(ProgressPrinter.clearing(columns: 20, width: 80) == "\r\u{1B}[K")
    #expect(ProgressPrinter.clearing(columns: 80, width: 80) == "\r\u{1B}[K")
    #expect(ProgressPrinter.clearing(columns: 81, width: 80) == "\r\u{1B}[1A\u{1B}[J")
    #expect(ProgressPrinter.clearing(columns: 90, width: 30) == "\r\u{1B}[2A\u{1B}[J")
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: a-lane-with-a-rather-long-name, sh: "sleep 2.5"}
        - {name: another-lane-with-a-long-name, sh: "sleep 2.5"}
      """)
    let command = "stty cols 120; (sleep 0.8; stty cols 30 < /dev/tty) & TERM=xterm '\(duetBinary.path)' verify -j 2"
    let quoted = "'" + command.replacingOccurrences(of: "'", with: "'\\''") + "'"
    #if os(Linux)
    let line = "script -qec \(quoted) /dev/null"
    #else
    let line = "script -q /dev/null sh -c \(quoted)"
    #endif
    let result = try shell(line, in: tree.url)
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("\u{1B}[J"), "the wrapped status line was not cleared whole: \(result.output.debugDescription)")
  }
}
