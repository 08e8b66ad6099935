import Foundation
import Testing
@testable import DuetFuzzSupport
@testable import DuetApp

/// The binary in a pseudo-terminal (`script`), where the status line is drawn.
@Suite("duet verify on a terminal (the binary in a pseudo-terminal)")
struct TerminalCLITests {
  /// What `duet verify` writes to a terminal whose `TERM` is `term`.
  func verifyOnTerminal(_ tree: FixtureTree, term: String) throws -> String {
    try onTerminal("TERM=\(term) '\(duetBinary.path)' verify", in: tree)
  }

  /// What a shell `command` writes, run in a pseudo-terminal in `tree`; it must exit 0.
  func onTerminal(_ command: String, in tree: FixtureTree) throws -> String {
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
    // A sleep that is the point: the lane runs while the status line's clock (a tick every 0.25 s) draws it.
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: slow, sh: \"sleep 0.8\"}\n")
    let xterm = try verifyOnTerminal(tree, term: "xterm")
    #expect(xterm.contains("\u{1B}[K") && xterm.contains("running: slow"), "\(xterm.debugDescription)")
    let dumb = try verifyOnTerminal(tree, term: "dumb")
    #expect(!dumb.contains("\u{1B}"), "\(dumb.debugDescription)")
    #expect(!dumb.contains("running: slow"))
    #expect(dumb.contains("duet verify: PASS (1 passed)"), "\(dumb.debugDescription)")
  }

  /// A lane's wait for the terminal to have been resized (at most 30 s).
  static let untilResized = "i=0; while [ ! -e resized ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done"

  /// Narrows the terminal to `columns` once both lanes run and the status line
  /// was drawn at the start's width, then says so (`resized`). Waits for the
  /// lanes to start, not a time a loaded machine may not keep (at most 30 s).
  static func resize(to columns: Int) -> String {
    "i=0; while { [ ! -e a.started ] || [ ! -e b.started ]; } && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done; "
      // A sleep that is the point: a tick of the status line's clock (every 0.25 s) draws it at 120 columns first.
      + "sleep 0.6; stty cols \(columns) < /dev/tty; touch resized"
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
        # A sleep that is the point: the lanes run on until the resize is redrawn (at once, on SIGWINCH).
        - {name: a-lane-with-a-rather-long-name, sh: "touch a.started; \(Self.untilResized); sleep 0.6"}
        - {name: another-lane-with-a-long-name, sh: "touch b.started; \(Self.untilResized); sleep 0.6"}
      """)
    let command = "stty cols 120; (\(Self.resize(to: 30))) & TERM=xterm '\(duetBinary.path)' verify -j 2"
    let output = try onTerminal(command, in: tree)
    #expect(output.contains("\u{1B}[J"), "the wrapped status line was not cleared whole: \(output.debugDescription)")
  }

  /// Issue 52, item 10: the status line is drawn for the terminal's width
  /// after a resize (SIGWINCH), however narrow: made 16 columns wide, the
  /// terminal gets a status line of at most 15 (it got the 120 columns of the
  /// start, which wrapped over eight rows and left them behind), and the
  /// signal stops nothing.
  @Test func aResizeRedrawsTheStatusLineAtTheNewWidth() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        # A sleep that is the point: the lanes run on until the resize is redrawn (at once, on SIGWINCH).
        - {name: a-lane-with-a-rather-long-name, sh: "touch a.started; \(Self.untilResized); sleep 0.6"}
        - {name: another-lane-with-a-long-name, sh: "touch b.started; \(Self.untilResized); sleep 0.6"}
      """)
    let command = "stty cols 120; (\(Self.resize(to: 16))) & TERM=xterm '\(duetBinary.path)' verify -j 2"
    let output = try onTerminal(command, in: tree)
    let drawn = output.matches(of: /\[0\/2\] running[^\u{1B}\r\n]*/).map { String($0.output) }
    let last = try #require(drawn.last, "\(output.debugDescription)")
    #expect(drawn.first.map { $0.count > 15 } == true, "drawn at 120 columns first: \(drawn)")
    #expect(last.count <= 15, "the status line after the resize: \(last.debugDescription) in \(output.debugDescription)")
    #expect(output.contains("duet verify: PASS (2 passed)"), "\(output.debugDescription)")
  }

  /// Issue 41, item 9: at 80 columns the status line names the running lanes
  /// that fit and counts the rest (`+2 more`), instead of cutting them off.
  @Test func theStatusLineCountsWhatDoesNotFit() {
    let names = ["kotlin-app 12s", "kotlin-theming 9.0s", "swift-FoyerKit 3.1s", "xcframework-FoyerKit 2.0s"]
    let line = ProgressPrinter.statusText(finished: 2, total: 9, running: names, width: 80)
    #expect(line == "[2/9] running: kotlin-app 12s, kotlin-theming 9.0s, +2 more", "\(line)")
    #expect(line.count <= 79)
    #expect(ProgressPrinter.statusText(finished: 0, total: 2, running: ["a 1s", "b 1s"], width: 80) == "[0/2] running: a 1s, b 1s")
    #expect(ProgressPrinter.statusText(finished: 0, total: 2, running: [String(repeating: "x", count: 90), "b"], width: 40).count == 39)
  }

  /// Issue 41, item 9: FORCE_COLOR or CLICOLOR_FORCE colours output that is
  /// not a terminal (a CI log that renders colour); NO_COLOR still wins.
  @Test func forcedColourReachesAPipe() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    for variable in ["FORCE_COLOR", "CLICOLOR_FORCE"] {
      let forced = try shell("\(variable)=1 NO_COLOR= '\(duetBinary.path)' verify", in: tree.url)
      #expect(forced.output.contains("\u{1B}[32;1mduet verify: PASS"), "\(variable): \(forced.output.debugDescription)")
    }
    let off = try shell("FORCE_COLOR=0 NO_COLOR= '\(duetBinary.path)' verify", in: tree.url)
    #expect(!off.output.contains("\u{1B}["), "\(off.output.debugDescription)")
    let both = try shell("FORCE_COLOR=1 NO_COLOR=1 '\(duetBinary.path)' verify", in: tree.url)
    #expect(!both.output.contains("\u{1B}["), "\(both.output.debugDescription)")
  }

  /// Issue 41, item 9: `--color always|never` anywhere on the line (or as
  /// `--color=WHEN`) wins over the environment and the terminal; any other
  /// value is a usage error naming the three.
  @Test func colorOption() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    let always = try shell("NO_COLOR=1 '\(duetBinary.path)' verify --color always", in: tree.url)
    #expect(always.output.contains("\u{1B}[32;1mduet verify: PASS"), "\(always.output.debugDescription)")
    let first = try shell("NO_COLOR= '\(duetBinary.path)' --color=always lanes", in: tree.url)
    #expect(first.output.contains("lane"), "\(first.output.debugDescription)")
    let never = try shell("FORCE_COLOR=1 NO_COLOR= '\(duetBinary.path)' verify --color=never", in: tree.url)
    #expect(!never.output.contains("\u{1B}["), "\(never.output.debugDescription)")
    #expect(never.output.contains("duet verify: PASS"), "\(never.output.debugDescription)")
    let auto = try shell("FORCE_COLOR=1 NO_COLOR= '\(duetBinary.path)' verify --color never --color auto", in: tree.url)
    #expect(auto.output.contains("\u{1B}[32;1mduet verify: PASS"), "the last --color wins: \(auto.output.debugDescription)")
    let bad = try shell("'\(duetBinary.path)' verify --color sometimes", in: tree.url)
    #expect(bad.status == 2 && bad.output.contains("duet: error: --color takes auto, always or never; got 'sometimes'"), "\(bad.output)")
    let missing = try shell("'\(duetBinary.path)' verify --color", in: tree.url)
    #expect(missing.status == 2 && missing.output.contains("--color takes auto, always or never, and got nothing"), "\(missing.output)")
  }

  /// Issue 41, item 9: with output that is not a terminal, a lane still running
  /// after the heartbeat gets a `still running` line (every 60 s in duet; here
  /// every 0.1 s), and none once nothing runs.
  @Test func stillRunningLine() throws {
    let buffers = ConsoleOutput.buffers()
    let console = Console(environment: ["COLUMNS": "80"], output: buffers)
    let printer = ProgressPrinter(console: console, quiet: false, heartbeat: 0.1)
    printer.start(total: 2)
    printer.handle(.started(lane: "kotlin"))
    #expect(eventually { buffers.text.stdout.contains("[0/2] still running: kotlin ") }, "\(buffers.text.stdout)")
    printer.finish()
  }
}
