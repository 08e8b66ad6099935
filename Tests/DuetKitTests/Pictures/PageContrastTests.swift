@testable import DuetRun
@testable import DuetTokens
import Foundation
import Testing
@testable import DuetPages
@testable import DuetHistory

/// Every text on the timings page and the report page meets WCAG's 4.5:1 against
/// what it is drawn on, light and dark (issue 41, item 8): the colours are read
/// from each page's own style sheet, per theme, and measured with duet's own
/// contrast code (`contrastRatio`, DuetTokens).
struct PageContrastTests {
  /// One declaration of the page's style sheet: selector, property, value, and whether it is in the dark theme's `@media`.
  struct Declaration { var selector: String, property: String, value: String, dark: Bool }

  /// The declarations of `css` in source order; a `@media (prefers-color-scheme: dark)` block's are marked dark.
  static func declarations(_ css: String) -> [Declaration] {
    var out: [Declaration] = []
    var rest = Substring(css)
    func rules(_ text: inout Substring, dark: Bool) {
      while let open = text.firstIndex(of: "{") {
        let prelude = text[..<open].trimmingCharacters(in: .whitespacesAndNewlines)
        text = text[text.index(after: open)...]
        if prelude.hasPrefix("@media") {
          rules(&text, dark: prelude.contains("prefers-color-scheme: dark"))
          continue
        }
        guard let close = text.firstIndex(of: "}") else { return }
        for declaration in text[..<close].split(separator: ";") {
          let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
          guard parts.count == 2 else { continue }
          for selector in prelude.split(separator: ",") {
            out.append(Declaration(selector: selector.trimmingCharacters(in: .whitespacesAndNewlines), property: parts[0], value: parts[1], dark: dark))
          }
        }
        text = text[text.index(after: close)...]
        // The end of an enclosing @media block.
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.first == "}" { text = trimmed.dropFirst(); return }
      }
    }
    rules(&rest, dark: false)
    return out
  }

  /// The value the theme gives `property` of `selector` (the last declaration that applies), with `var(--x)` resolved.
  static func value(_ declarations: [Declaration], _ selector: String, _ property: String, dark: Bool) -> String? {
    guard let found = declarations.last(where: { $0.selector == selector && $0.property == property && (!$0.dark || dark) }) else { return nil }
    if found.value.hasPrefix("var("), let name = found.value.dropFirst(4).split(separator: ")").first {
      return value(declarations, ":root", String(name), dark: dark)
    }
    return found.value
  }

  /// The first of `candidates` (most specific first) the theme declares, as a colour.
  static func colour(_ declarations: [Declaration], _ candidates: [(String, String)], dark: Bool) -> (String, SRGBColor)? {
    for (selector, property) in candidates {
      guard let text = value(declarations, selector, property, dark: dark) else { continue }
      let hex = text.hasPrefix("#") ? String(text.dropFirst()) : ""
      let full = hex.count == 3 ? hex.map { "\($0)\($0)" }.joined() : hex
      guard full.count == 6, let rgb = UInt32(full, radix: 16) else { return nil }
      return ("\(selector) { \(property): \(text) }", SRGBColor(red: Double(rgb >> 16) / 255, green: Double((rgb >> 8) & 0xFF) / 255, blue: Double(rgb & 0xFF) / 255))
    }
    return nil
  }

  /// The page's text-on-background pairs: (what, text candidates, background candidates), each most specific first.
  static func pairs(_ html: String) -> [(String, [(String, String)], [(String, String)])] {
    let body = [("body", "color")], page = [("body", "background")]
    var pairs: [(String, [(String, String)], [(String, String)])] = [("page text", body, page)]
    if html.contains("<svg") { pairs.append(("chart text", [("svg text", "fill")], page)) }
    if html.contains("class=\"outside\"") { pairs.append(("a label after its bar", [(".bar text.outside", "fill"), ("svg text", "fill")], page)) }
    func classes(_ pattern: String) -> Set<String> {
      Set(html.matches(of: try! Regex(pattern)).compactMap { $0.output[1].substring.map(String.init) })
    }
    for outcome in classes(#"<g class="bar (\w+)"#).sorted() {
      pairs.append(("a label in a \(outcome) bar", [(".bar.\(outcome) text.inside", "fill"), (".bar text", "fill"), ("svg text", "fill")], [(".\(outcome) rect", "fill")]))
    }
    // The flaky map: a cell of a table (text inherits the page's) or of an SVG; an absent cell has no symbol.
    for outcome in classes(#"<td class="cell (\w+)""#).sorted() where outcome != "absent" {
      pairs.append(("a \(outcome) cell's symbol", [("td.cell.\(outcome)", "color")] + body, [("td.cell.\(outcome)", "background")]))
    }
    for outcome in classes(#"<g class="cell (\w+)""#).sorted() where outcome != "absent" {
      pairs.append(("a \(outcome) cell's symbol", [(".cell.\(outcome) text", "fill"), ("svg text", "fill")], [(".\(outcome) rect", "fill")]))
    }
    return pairs
  }

  /// Every pair the page uses, light and dark, below 4.5:1.
  static func problems(_ html: String) throws -> [String] {
    let style = try #require(html.firstRange(of: "<style>").flatMap { start in html.firstRange(of: "</style>").map { html[start.upperBound..<$0.lowerBound] } })
    let declarations = Self.declarations(String(style))
    var problems: [String] = []
    for (what, text, background) in pairs(html) {
      for dark in [false, true] {
        let theme = dark ? "dark" : "light"
        guard let (textRule, fore) = colour(declarations, text, dark: dark), let (backRule, back) = colour(declarations, background, dark: dark) else {
          problems.append("\(what) (\(theme)): no colour in the style sheet")
          continue
        }
        let ratio = contrastRatio(fore, back)
        if ratio < 4.5 { problems.append("\(what) (\(theme)): \(ratioText(ratio)), \(textRule) on \(backRule)") }
      }
    }
    return problems
  }

  /// A failed run with every outcome a bar can have, a cached and a skipped lane.
  static func timingsPage() -> String {
    let steps = PicturesTests.steps + [
      PicturesTests.step("kotlin", 1, 0, 2, .fail, lane: .fail), PicturesTests.step("slow", 1, 1, 4, .timeout, lane: .timeout),
      PicturesTests.step("stop", 1, 1, 1.5, .interrupted, lane: .interrupted), PicturesTests.step("after", 0, 0, 0, nil, lane: .skipped),
    ]
    return TimingsPage.html(RunTimeline(run: PicturesTests.run(), steps: steps, needs: PicturesTests.needs))
  }

  @Test func timingsPageTextMeetsContrast() throws {
    let html = Self.timingsPage()
    #expect(Self.pairs(html).count >= 7)
    #expect(try Self.problems(html) == [])
  }

  @Test func reportPageTextMeetsContrast() throws {
    let (store, folder) = try HistoryReportTests.store()
    defer { try? FileManager.default.removeItem(at: folder) }
    let html = ReportPage.html(try HistoryReport.compute(store: store, last: 500), time: { "t\($0)" })
    // Text on the page, and a symbol on each of a passed, flaky, failed and cached cell.
    #expect(Self.pairs(html).count >= 5)
    #expect(try Self.problems(html) == [])
  }

  /// The reader of the style sheet finds what a browser would: a dark value overrides a light one only in the dark theme.
  @Test func styleSheetReader() {
    let declarations = Self.declarations(":root { --fg: #111111; } @media (prefers-color-scheme: dark) { :root { --fg: #eeeeee; } .a text { fill: #123; } } body { color: var(--fg); }")
    #expect(Self.value(declarations, "body", "color", dark: false) == "#111111")
    #expect(Self.value(declarations, "body", "color", dark: true) == "#eeeeee")
    #expect(Self.value(declarations, ".a text", "fill", dark: false) == nil)
    #expect(Self.colour(declarations, [(".a text", "fill")], dark: true)?.1 == SRGBColor(red: 0x11 / 255, green: 0x22 / 255, blue: 0x33 / 255))
  }
}
