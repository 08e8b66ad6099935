import DuetSupport

/// The look the pictures share: one inline style sheet (no font or file from
/// anywhere), outcome colours that also read in dark mode, and a pattern or
/// outline per outcome so no outcome is told by colour alone.
enum PageStyle {
  /// Outcome to its fill and the colour of text on that fill, light and dark:
  /// each text colour meets WCAG's 4.5:1 against its fill (`PageContrastTests`
  /// measures it from this style sheet with duet's own contrast code).
  static let colours: [(outcome: String, light: String, lightText: String, dark: String, darkText: String)] = [
    ("pass", "#2e7d32", "#ffffff", "#66bb6a", "#000000"), ("flaky", "#f9a825", "#000000", "#fdd835", "#000000"),
    ("retried", "#ef6c00", "#000000", "#ffa726", "#000000"), ("fail", "#c62828", "#ffffff", "#ef5350", "#000000"),
    ("timeout", "#6a1b9a", "#ffffff", "#ba68c8", "#000000"), ("cached", "#90a4ae", "#000000", "#78909c", "#000000"),
    ("skipped", "#bdbdbd", "#000000", "#616161", "#ffffff"), ("cancelled", "#bdbdbd", "#000000", "#616161", "#ffffff"),
    ("interrupted", "#5d4037", "#ffffff", "#a1887f", "#000000"), ("excused", "#ad1457", "#ffffff", "#f06292", "#000000"),
  ]

  static let css: HTML = {
    var css: HTML = """
      :root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --grid: #d0d0d0; --crit: #000000; }
      @media (prefers-color-scheme: dark) { :root { --fg: #e8e8e8; --bg: #16181c; --grid: #3a3d44; --crit: #ffffff; } }
      body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 1.5em; }
      h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
      table { border-collapse: collapse; } th, td { padding: 2px 10px; text-align: left; border-bottom: 1px solid var(--grid); }
      td.num { text-align: right; font-variant-numeric: tabular-nums; }
      svg text { fill: var(--fg); font-size: 11px; } svg .grid { stroke: var(--grid); stroke-width: 1; } svg .axis line.tick { stroke: var(--fg); }
      .bar text.outside { fill: var(--fg); }
      .bar.critical rect { stroke: var(--crit); stroke-width: 2.5; }
      .bar.fail rect, .bar.timeout rect { stroke-dasharray: 4 2; stroke: var(--fg); stroke-width: 1; }
      .bar.retried rect { stroke-dasharray: 1 2; stroke: var(--fg); stroke-width: 1; }
      .bar.critical.fail rect, .bar.critical.timeout rect, .bar.critical.retried rect { stroke: var(--crit); stroke-width: 2.5; }
      .legend span { display: inline-block; margin-right: 1em; } .swatch { display: inline-block; width: 1em; height: 1em; vertical-align: middle; margin-right: .3em; }
      .swatch.critical-path { box-sizing: border-box; border: 2.5px solid var(--crit); }
      .wait line { stroke: var(--fg); stroke-width: 2; } .swatch.wait { border-bottom: 2px solid var(--fg); border-left: 2px solid var(--fg); height: .5em; box-sizing: border-box; }
      #concurrency polyline { fill: none; stroke: var(--fg); stroke-width: 1.5; }
      .spark polyline { fill: none; stroke: var(--fg); stroke-width: 1.2; } .saved-bar rect { fill: var(--fg); }
      .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
      .cell text { font-size: 12px; text-anchor: middle; } .cell.absent rect { fill: none; stroke: var(--grid); }
      """
    for (outcome, light, lightText, dark, darkText) in colours {
      css += "\n.\(outcome) rect, .swatch.\(outcome) { fill: \(light); background: \(light); } .cell.\(outcome) text, .bar.\(outcome) text.inside { fill: \(lightText); }"
      css += "\n@media (prefers-color-scheme: dark) { .\(outcome) rect, .swatch.\(outcome) { fill: \(dark); background: \(dark); } .cell.\(outcome) text, .bar.\(outcome) text.inside { fill: \(darkText); } }"
    }
    return css
  }()

  /// The page around `body`: one file, nothing from the network.
  static func page(title: String, body: HTML) -> String {
    let page: HTML = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
    <title>\(HTMLText.escaped(title))</title>
    <style>
    \(css)
    </style>
    </head>
    <body>
    \(body)
    </body>
    </html>

    """
    return page.text
  }

  /// A legend of the outcomes, each a swatch and its word.
  static func legend(_ outcomes: [String]) -> HTML {
    "<p class=\"legend\">" + outcomes.map { "<span><span class=\"swatch \(PageStyle.safeClass($0))\" aria-hidden=\"true\"></span>\(HTMLText.escaped($0))</span>" }.joined() + "</p>"
  }

  /// An outcome word as a class name: duet's own words pass; anything else becomes `other`.
  static func safeClass(_ outcome: String) -> String {
    outcome.allSatisfy({ $0.isASCII && $0.isLetter }) ? outcome : "other"
  }

  /// Seconds as the pages print them.
  static func seconds(_ value: Double) -> String { DurationText.format(value) }

  /// Ticks for an axis from 0 over `span`: a step of 1, 2 or 5 × 10^n (from a
  /// thousandth; from 1 with `whole`), at most 10 of them, the last at or past `span`.
  static func ticks(_ span: Double, whole: Bool = false) -> (step: Double, count: Int) {
    let span = max(span, whole ? 1 : 0.001)
    var power = whole ? 1.0 : 0.001
    while true {
      for multiple in [1.0, 2.0, 5.0] {
        let step = multiple * power
        let count = Int((span / step - 1e-9).rounded(.up))
        if count <= 10 { return (step, max(count, 1)) }
      }
      power *= 10
    }
  }

  /// A tick's value in seconds with no more decimals than it needs: `0s`, `0.5s`, `1s`, `20s`, `2m00s`.
  static func tick(_ value: Double, step: Double) -> String {
    if step >= 60 { return DurationText.format(value) }
    var text = DurationText.fixed(value, "%.3f")
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "s"
  }

  /// A coordinate in an SVG attribute: one decimal.
  static func number(_ value: Double) -> String { DurationText.fixed(value, "%.1f") }
}
