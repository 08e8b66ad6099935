import Testing
@testable import DuetRun
@testable import DuetRunReports

/// Issue 42, item 4: `Markdown` is made only of duet's literal Markdown,
/// `MarkdownText`'s escaping for where a value goes, and other Markdown, so a
/// lane's text interpolated into the step summary is escaped once, whatever
/// its variable is called.
@Suite("Markdown as a type")
struct MarkdownTypeTests {
  static let hostile = "a|b\n<script>alert(1)</script> ``` x\u{1B}[31m"

  @Test func aCellKeepsItsRowAndItsText() {
    let row: Markdown = "| \(Self.hostile) | pass |"
    #expect(row.text == "| a\\|b &lt;script&gt;alert(1)&lt;/script&gt; \\`\\`\\` x | pass |")
  }

  /// A test name or path in a cell or a line is text, not Markdown: a link,
  /// an image, emphasis, a code span or math in it stays as it was typed.
  @Test func aCellKeepsMarkdownInert() {
    let cell: Markdown = "\("x` [click](https:evil) ![p](https:evil?p.png) *b* _i_ ~s~ $m$ \\|")"
    #expect(cell.text == #"x\` \[click\](https:evil) !\[p\](https:evil?p.png) \*b\* \_i\_ \~s\~ \$m\$ \\\|"#)
  }

  /// A bidirectional override in a cell, a summary line or an annotation
  /// cannot reorder duet's text after it on GitHub's page: U+FFFD.
  @Test func bidiControlsAreReplacedInCellsAndAnnotations() {
    let cell: Markdown = "| \("a\u{202E}b\u{2067}c") | pass |"
    #expect(cell.text == "| a\u{FFFD}b\u{FFFD}c | pass |")
    #expect(WorkflowCommandText.escape("a\u{202E}b", in: .data) == "a\u{FFFD}b")
    #expect(XMLText.escape("a\u{202D}b", in: .attribute) == "a\u{FFFD}b")
  }

  /// A code span is fenced by more backticks than any run in it, so a path
  /// holding backticks cannot close it and write Markdown after it.
  @Test func aCodeSpanOutgrowsTheBackticksInIt() {
    #expect(MarkdownText.codeSpan("src/x.swift").text == "`src/x.swift`")
    #expect(MarkdownText.codeSpan("x` [click](https:evil) `y").text == "``x` [click](https:evil) `y``")
    #expect(MarkdownText.codeSpan("`a\nb|c").text == "`` `a b|c ``")
  }

  @Test func inlineHTMLIsEscapedAsHTML() {
    let block: Markdown = "<summary>\(Self.hostile, in: .html)</summary>"
    #expect(block.text == "<summary>a|b\n&lt;script&gt;alert(1)&lt;/script&gt; ``` x\u{FFFD}[31m</summary>")
  }

  @Test func aCodeBlockOutgrowsTheBackticksInIt() {
    let block = MarkdownText.codeBlock(Self.hostile)
    #expect(block.text == "````text\na|b\n<script>alert(1)</script> ``` x\n````")
  }

  @Test func markdownInterpolatedIsNotEscapedTwice() {
    let cell: Markdown = "\("a|b")"
    let line: Markdown = "## \(cell) \(2)"
    #expect(line.text == "## a\\|b 2")
  }
}
