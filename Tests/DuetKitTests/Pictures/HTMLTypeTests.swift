import Testing
@testable import DuetSupport

/// Issue 42, item 4: `HTML` is made only of duet's literal markup, escaped
/// text and other HTML, so text interpolated into a page is escaped once,
/// whatever it is called, and markup is never escaped twice.
@Suite("HTML as a type")
struct HTMLTypeTests {
  @Test func textInterpolatedIsEscaped() {
    let lane = "</title><script>alert(1)</script>"
    let html: HTML = "<td>\(lane)</td>"
    #expect(html.text == "<td>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>")
  }

  /// A bidirectional override or isolate in a test name (U+202E) would
  /// reorder the rest of its paragraph, duet's own words included: it shows
  /// as U+FFFD, as the controls do.
  @Test func bidiControlsCannotReorderThePage() {
    let name = "bidi\u{202E}evil\u{202A}x\u{2066}y\u{2069}"
    let html: HTML = "<p><strong>\(name)</strong> in junit</p>"
    #expect(html.text == "<p><strong>bidi\u{FFFD}evil\u{FFFD}x\u{FFFD}y\u{FFFD}</strong> in junit</p>")
  }

  @Test func htmlInterpolatedIsKeptAndNotEscapedTwice() {
    let name = HTMLText.escaped("a&b")
    let strong: HTML = "<strong>\(name)</strong>"
    let row: HTML = "<p>\(strong), \(3) run(s), \(1.5)s</p>"
    #expect(row.text == "<p><strong>a&amp;b</strong>, 3 run(s), 1.5s</p>")
  }

  @Test func joiningKeepsMarkup() {
    let parts: [HTML] = ["<b>x</b>", HTMLText.escaped("<y>")]
    #expect(parts.joined(separator: ", ").text == "<b>x</b>, &lt;y&gt;")
    var html: HTML = "<p>"
    html += "\("it's")" + "</p>"
    #expect(html.text == "<p>it&#39;s</p>")
  }
}
