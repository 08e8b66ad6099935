import Testing
@testable import DuetApp
@testable import DuetOutput
@testable import DuetSupport

/// Issue 42, item 4: a printed line is a `TerminalLine`, made of duet's
/// literals, text escaped by `ControlText.shown` and other lines, so tree text
/// interpolated into it is escaped once, whatever its variable is called, and
/// lines duet built are never escaped twice.
@Suite("Terminal lines as a type")
struct TerminalLineTests {
  static let injected = "x\n::error::pwned"
  static let retitle = "\u{1B}]0;title\u{07}"

  @Test func treeTextInterpolatedIsEscaped() {
    let name = Self.injected
    let label = Self.retitle
    let line: TerminalLine = "lane \(name) in \(label): \(3) run(s)"
    #expect(line.text == "lane x\\n::error::pwned in \\u{1B}]0;title\\u{7}: 3 run(s)")
    #expect(!line.text.contains("\n") && !line.text.unicodeScalars.contains { ControlText.needsEscape($0) })
  }

  @Test func linesAreNotEscapedTwice() {
    let name: TerminalLine = "\(Self.injected)"
    let lines: [TerminalLine] = ["a \(name)", "b"]
    let joined = lines.joined(separator: "\n")
    #expect(joined.text == "a x\\n::error::pwned\nb")
    #expect(("\(joined)!" as TerminalLine).text == "a x\\n::error::pwned\nb!")
  }

  /// Issue 54, item 11 (c): a lower layer's reason is a line whose text is
  /// handed on as a `String` (a JSON report, a run's warnings), and a printer
  /// that makes it a line again changes nothing: `shown` leaves shown text as
  /// it is, so the bytes are those of one escaping, whatever path they took.
  @Test func aLinesTextMadeALineAgainIsTheSame() {
    let hostile = Self.injected + Self.retitle + "\u{202E}\t\0\\n"
    let once: TerminalLine = "cannot restore \(hostile)"
    #expect(TerminalLine(escaping: once.text) == once)
    #expect(("warning: \(once.text)" as TerminalLine).text == "warning: " + once.text)
    #expect(once.text == #"cannot restore x\n::error::pwned\u{1B}]0;title\u{7}\u{202E}\t\0\n"#)
  }

  /// A lane's log tail keeps its colours and tabs, as the console's guard
  /// does, but not a line break or a title sequence.
  @Test func laneOutputKeepsColoursAndTabs() {
    let tail = "\u{1B}[31merror:\u{1B}[0m\tx\n::error::y\(Self.retitle)"
    let line: TerminalLine = "   \(tail, in: .laneOutput)"
    #expect(line.text == "   \u{1B}[31merror:\u{1B}[0m\tx\\n::error::y\\u{1B}]0;title\\u{7}")
  }

  /// The printout, a table and a hanging list take lines, not Strings, and show a hostile name escaped.
  @Test func writersShowHostileNamesEscaped() {
    var printout = Printout()
    printout.out("lanes: \(Self.injected)")
    printout.err("error: \(Self.retitle)")
    printout.table(TextTable(header: ["lane"], rows: [["\(Self.injected)"]]), width: 80)
    for line in HangingList.lines([("\(Self.retitle)", "\(Self.injected)")]) { printout.out(line) }
    #expect(printout.outText == "lanes: x\\n::error::pwned\n  lane\n  x\\n::error::pwned\n  \\u{1B}]0;title\\u{7}  x\\n::error::pwned\n")
    #expect(printout.errText == "error: \\u{1B}]0;title\\u{7}\n")
  }
}
