import Testing
@testable import DuetRun

/// Issue 42, item 4: `Markdown` is made only of duet's literal Markdown,
/// `MarkdownText`'s escaping for where a value goes, and other Markdown, so a
/// lane's text interpolated into the step summary is escaped once, whatever
/// its variable is called.
@Suite("Markdown as a type")
struct MarkdownTypeTests {
  static let hostile = "a|b\n<script>alert(1)</script> ``` x\u{1B}[31m"

  @Test func aCellKeepsItsRowAndItsText() {
    let row: Markdown = "| \(Self.hostile) | pass |"
    #expect(row.text == "| a\\|b &lt;script&gt;alert(1)&lt;/script&gt; ``` x | pass |")
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
