import DuetSupport
import DuetHistory

/// `duet trace --html FILE`: the trace's slices on a page that stands alone
/// (inline SVG and CSS, no script, nothing from the network), for a machine
/// with no way to ui.perfetto.dev. It is drawn from the very events
/// `duet trace` prints: one track per job slot, one slice per complete event
/// at its `ts` and `dur` (microseconds), named and titled with its `args`; a
/// slice its neighbour would cover gets a row of its own under its track, as
/// on the timings page; and a table of every slice with its numbers.
package enum TracePage {
  static let trackLabel = 70.0
  static let width = 1000.0

  package static func html(_ timeline: RunTimeline) -> String {
    let title = "duet trace: run \(timeline.runID), \(timeline.verdict.uppercased()) in \(PageStyle.seconds(timeline.duration))"
    let slices = TraceJSON.events(timeline).filter { $0.ph == "X" }
    var body: HTML = "<h1>\(HTMLText.escaped(title))</h1>\n"
    body += "<p>The slices of <code>duet trace</code>'s Trace Event JSON: \(slices.count) slice(s) on \(timeline.slots) track(s), one per job slot; "
    body += "times are from the run's start. Each slice's title holds its arguments.</p>\n"
    body += PageStyle.legend(["pass", "retried", "fail", "timeout", "interrupted", "excused"]) + "\n"
    body += chart(timeline, slices: slices) + "\n" + table(slices)
    return PageStyle.page(title: title, body: body)
  }

  static func chart(_ timeline: RunTimeline, slices: [TraceJSON.Event]) -> HTML {
    let (step, count) = PageStyle.ticks(timeline.duration)
    let scale = width / (step * Double(count))
    let layout = TimingsRows(timeline.bars, slots: timeline.slots, scale: scale)
    let rowHeight = TimingsPage.rowHeight, height = Double(layout.rowCount) * rowHeight + 24
    var svg: HTML = "<svg id=\"trace\" role=\"img\" aria-label=\"\(slices.count) slice(s) on \(timeline.slots) track(s); the table below lists them\" "
    svg += "width=\"\(PageStyle.number(trackLabel + width + 40))\" height=\"\(PageStyle.number(height))\">\n"
    for tick in 0...count {
      let x = PageStyle.number(trackLabel + Double(tick) * step * scale)
      svg += "<line class=\"grid\" x1=\"\(x)\" y1=\"0\" x2=\"\(x)\" y2=\"\(PageStyle.number(height - 18))\"/>"
      svg += "<text class=\"tick\" x=\"\(x)\" y=\"\(PageStyle.number(height - 4))\" text-anchor=\"middle\">\(PageStyle.tick(step * Double(tick), step: step))</text>\n"
    }
    for (slot, rows) in layout.slotRows.enumerated() {
      svg += "<text x=\"4\" y=\"\(PageStyle.number(Double(rows.first) * rowHeight + 17))\">slot \(slot + 1)</text>\n"
    }
    // The complete events are the bars, one for one and in order.
    for (slice, place) in zip(slices, layout.places) {
      svg += self.slice(slice, x: trackLabel + Double(slice.ts) / 1_000_000 * scale, scale: scale, place: place)
    }
    return svg + "</svg>"
  }

  static func slice(_ slice: TraceJSON.Event, x: Double, scale: Double, place: TimingsRows.Place) -> HTML {
    let name = HTMLText.escaped(slice.name)
    let width = max(TimingsPage.minimumBarWidth, Double(slice.dur) / 1_000_000 * scale)
    let y = Double(place.row) * TimingsPage.rowHeight + 3
    let args = slice.args.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    var svg: HTML = "<g class=\"bar slice \(PageStyle.safeClass(slice.cat))\" data-name=\"\(name)\" data-ts=\"\(slice.ts)\" data-dur=\"\(slice.dur)\" data-tid=\"\(slice.tid)\">"
    svg += "<title>\(name): \(slice.dur) µs from \(slice.ts) µs on slot \(slice.tid) (\(HTMLText.escaped(args)))</title>"
    svg += "<rect x=\"\(PageStyle.number(x))\" y=\"\(PageStyle.number(y))\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(TimingsPage.rowHeight - 6))\" rx=\"2\"/>"
    let fits = width >= Double(slice.name.count) * TimingsPage.characterWidth + 6
    if fits || place.labelled {
      svg += "<text class=\"\(fits ? "inside" : "outside")\" x=\"\(PageStyle.number(fits ? x + 3 : x + width + 3))\" y=\"\(PageStyle.number(y + 14))\" aria-hidden=\"true\">\(name)</text>"
    }
    return svg + "</g>\n"
  }

  /// Every slice with its numbers, as the JSON has them.
  static func table(_ slices: [TraceJSON.Event]) -> HTML {
    var html: HTML = "<h2>Slices</h2>\n<table id=\"slices\">\n<thead><tr><th scope=\"col\">name</th><th scope=\"col\">track</th><th scope=\"col\">ts (µs)</th>"
    html += "<th scope=\"col\">dur (µs)</th><th scope=\"col\">outcome</th><th scope=\"col\">args</th></tr></thead>\n<tbody>\n"
    for slice in slices {
      let args = slice.args.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
      html += "<tr><td>\(HTMLText.escaped(slice.name))</td><td>slot \(slice.tid)</td><td class=\"num\">\(slice.ts)</td><td class=\"num\">\(slice.dur)</td>"
      html += "<td><span class=\"swatch \(PageStyle.safeClass(slice.cat))\" aria-hidden=\"true\"></span>\(HTMLText.escaped(slice.cat))</td><td>\(HTMLText.escaped(args))</td></tr>\n"
    }
    return html + "</tbody>\n</table>"
  }
}
