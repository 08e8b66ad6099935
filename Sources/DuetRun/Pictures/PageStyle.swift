import DuetSupport

/// The look the pictures share: one inline style sheet (no font or file from
/// anywhere), outcome colours that also read in dark mode, and a pattern or
/// outline per outcome so no outcome is told by colour alone.
package enum PageStyle {
  /// Outcome to (light, dark) fill.
  static let colours: [(String, String, String)] = [
    ("pass", "#2e7d32", "#66bb6a"), ("flaky", "#f9a825", "#fdd835"), ("retried", "#ef6c00", "#ffa726"),
    ("fail", "#c62828", "#ef5350"), ("timeout", "#6a1b9a", "#ba68c8"), ("cached", "#90a4ae", "#78909c"),
    ("skipped", "#bdbdbd", "#616161"), ("cancelled", "#bdbdbd", "#616161"), ("interrupted", "#5d4037", "#a1887f"),
  ]

  package static let css: String = {
    var css = """
      :root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --grid: #d0d0d0; --crit: #000000; }
      @media (prefers-color-scheme: dark) { :root { --fg: #e8e8e8; --bg: #16181c; --grid: #3a3d44; --crit: #ffffff; } }
      body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 1.5em; }
      h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
      table { border-collapse: collapse; } th, td { padding: 2px 10px; text-align: left; border-bottom: 1px solid var(--grid); }
      td.num { text-align: right; font-variant-numeric: tabular-nums; }
      svg text { fill: var(--fg); font-size: 11px; } svg .grid { stroke: var(--grid); stroke-width: 1; }
      .bar text { fill: #ffffff; stroke: #000000; stroke-width: 2px; paint-order: stroke; }
      .bar.critical rect { stroke: var(--crit); stroke-width: 2.5; }
      .bar.fail rect, .bar.timeout rect { stroke-dasharray: 4 2; stroke: var(--fg); stroke-width: 1; }
      .bar.retried rect { stroke-dasharray: 1 2; stroke: var(--fg); stroke-width: 1; }
      .bar.critical.fail rect, .bar.critical.timeout rect, .bar.critical.retried rect { stroke: var(--crit); stroke-width: 2.5; }
      .legend span { display: inline-block; margin-right: 1em; } .swatch { display: inline-block; width: 1em; height: 1em; vertical-align: middle; margin-right: .3em; }
      .spark polyline { fill: none; stroke: var(--fg); stroke-width: 1.2; }
      """
    for (outcome, light, dark) in colours {
      css += "\n.\(outcome) rect, .swatch.\(outcome), td.cell.\(outcome) { fill: \(light); background: \(light); }"
      css += "\n@media (prefers-color-scheme: dark) { .\(outcome) rect, .swatch.\(outcome), td.cell.\(outcome) { fill: \(dark); background: \(dark); } }"
    }
    return css
  }()

  /// The page around `body`: one file, nothing from the network.
  package static func page(title: String, body: String) -> String {
    """
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
  }

  /// A legend of the outcomes, each a swatch and its word.
  package static func legend(_ outcomes: [String]) -> String {
    "<p class=\"legend\">" + outcomes.map { "<span><span class=\"swatch \(PageStyle.safeClass($0))\" aria-hidden=\"true\"></span>\(HTMLText.escaped($0))</span>" }.joined() + "</p>"
  }

  /// An outcome word as a class name: duet's own words pass; anything else becomes `other`.
  package static func safeClass(_ outcome: String) -> String {
    outcome.allSatisfy({ $0.isASCII && $0.isLetter }) ? outcome : "other"
  }

  /// Seconds as the pages print them.
  package static func seconds(_ value: Double) -> String { DurationText.format(value) }

  /// A coordinate in an SVG attribute: one decimal.
  package static func number(_ value: Double) -> String { DurationText.fixed(value, "%.1f") }
}
