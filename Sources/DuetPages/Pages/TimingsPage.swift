import DuetSupport
import DuetHistory

/// `duet verify --timings`: one HTML page that stands alone (inline SVG and
/// CSS, no script, nothing from the network) with the run's lanes on their job
/// slots, coloured and patterned by outcome, the critical path outlined, and a
/// table of every lane with its wait for its needs. Every text from the tree
/// goes through `HTMLText.escaped`.
package enum TimingsPage {
  static let chartWidth = 1000.0
  static let labelWidth = 70.0
  static let rowHeight = 26.0
  /// The concurrency row's height, under the slots.
  static let concurrencyHeight = 40.0
  /// The narrowest a bar is drawn, so a lane of a few milliseconds is still seen (and hovered for its title).
  static let minimumBarWidth = 4.0
  /// A label's width per character at the chart's 11 px (a generous average).
  static let characterWidth = 7.0

  package static func html(_ timeline: RunTimeline) -> String {
    let title = "duet verify timings: \(timeline.verdict.uppercased()) in \(PageStyle.seconds(timeline.duration))\(failing(timeline))"
    var body: HTML = "<h1>\(HTMLText.escaped(title))</h1>\n"
    body += "<p>Run \(HTMLText.escaped(timeline.runID)): \(timeline.lanes.count) lane(s) on \(timeline.slots) job slot(s). "
    body += "Critical path (outlined, \(timeline.criticalPath.count) lane(s)): \(pathText(timeline.criticalPath).nonEmpty ?? "none").</p>\n"
    body += legend(timeline) + "\n"
    body += chart(timeline) + "\n"
    body += table(timeline)
    return PageStyle.page(title: title, body: body)
  }

  /// The path's lanes, the middle left out past 12 (the table marks every one).
  static func pathText(_ path: [String]) -> String {
    path.count <= 12 ? path.joined(separator: " → ") : (path.prefix(5) + ["…"] + path.suffix(5)).joined(separator: " → ")
  }

  /// `: kotlin failed`, `: a, b failed; c timed out` for a run with failing lanes (at most 5 named), else nothing.
  static func failing(_ timeline: RunTimeline) -> String {
    let failing = timeline.failingLanes
    guard !failing.isEmpty else { return "" }
    var parts: [String] = []
    for (outcome, words) in [("fail", "failed"), ("timeout", "timed out")] {
      let lanes = failing.filter { $0.outcome == outcome }.map(\.lane)
      guard !lanes.isEmpty else { continue }
      let named = lanes.count <= 5 ? lanes.joined(separator: ", ") : lanes.prefix(4).joined(separator: ", ") + " and \(lanes.count - 4) more"
      parts.append("\(named) \(words)")
    }
    return ": " + parts.joined(separator: "; ")
  }

  /// The outcomes' swatches, the critical path's outline, and the lanes the chart has no bar for.
  static func legend(_ timeline: RunTimeline) -> HTML {
    let outcomes = ["pass", "flaky", "retried", "fail", "timeout", "interrupted", "excused", "cached", "skipped"]
    var html: HTML = "<p class=\"legend\" id=\"legend\">" + outcomes.map {
      "<span><span class=\"swatch \(PageStyle.safeClass($0))\" aria-hidden=\"true\"></span>\(HTMLText.escaped($0))</span>"
    }.joined()
    html += "<span><span class=\"swatch critical-path\" aria-hidden=\"true\"></span>critical path (outlined)</span>"
    html += "<span><span class=\"swatch wait\" aria-hidden=\"true\"></span>waited for a job slot after its needs</span></p>\n"
    let notRun = timeline.lanes.filter { $0.attempts == 0 }
    var words: [HTML] = []
    for outcome in ["cached", "skipped", "cancelled", "unaffected"] {
      let lanes = notRun.filter { $0.outcome == outcome }.map(\.lane)
      if !lanes.isEmpty { words.append("\(HTMLText.escaped(outcome)): \(HTMLText.escaped(lanes.joined(separator: ", ")))") }
    }
    if !words.isEmpty { html += "<p id=\"not-run\">Not run, so no bar: \(words.joined(separator: "; ")).</p>" }
    let excused = timeline.lanes.filter { $0.outcome == "excused" }.map(\.lane)
    if !excused.isEmpty {
      html += "<p id=\"excused\">Excused by the quarantine (lanes/quarantine.yaml), so they did not fail the run: \(HTMLText.escaped(excused.joined(separator: ", "))).</p>"
    }
    return html
  }

  /// The Gantt chart: a row per job slot (and one under it for a bar its neighbour would cover), one bar per attempt,
  /// each with a `<title>` saying what it is; under them, how many lanes ran.
  static func chart(_ timeline: RunTimeline) -> HTML {
    let (step, count) = PageStyle.ticks(timeline.duration)
    let scale = chartWidth / (step * Double(count))
    let layout = TimingsRows(timeline.bars, slots: timeline.slots, scale: scale)
    let rows = Double(layout.rowCount) * rowHeight
    let height = rows + concurrencyHeight + 30
    let width = labelWidth + chartWidth + 40
    var svg: HTML = "<svg id=\"gantt\" role=\"img\" aria-labelledby=\"gantt-title\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(height))\" "
    svg += "viewBox=\"0 0 \(PageStyle.number(width)) \(PageStyle.number(height))\">\n"
    svg += "<title id=\"gantt-title\">Lanes on job slots over \(PageStyle.seconds(timeline.duration)), and how many ran at once; the table below lists the same</title>\n"
    svg += "<g class=\"axis\" id=\"time-axis\">"
    for tick in 0...count {
      let x = labelWidth + Double(tick) * step * scale
      svg += "<line class=\"grid\" x1=\"\(PageStyle.number(x))\" y1=\"0\" x2=\"\(PageStyle.number(x))\" y2=\"\(PageStyle.number(height - 18))\"/>"
      svg += "<text class=\"tick\" x=\"\(PageStyle.number(x))\" y=\"\(PageStyle.number(height - 4))\" text-anchor=\"middle\">\(PageStyle.tick(step * Double(tick), step: step))</text>\n"
    }
    svg += "</g>\n"
    for (slot, rowsOfSlot) in layout.slotRows.enumerated() {
      let top = Double(rowsOfSlot.first) * rowHeight
      if slot > 0 { svg += "<line class=\"grid\" x1=\"0\" y1=\"\(PageStyle.number(top))\" x2=\"\(PageStyle.number(labelWidth))\" y2=\"\(PageStyle.number(top))\"/>" }
      svg += "<text x=\"4\" y=\"\(PageStyle.number(top + 17))\">slot \(slot + 1)</text>\n"
    }
    // Bars that did not pass are drawn last: nothing is drawn over them.
    let order = timeline.bars.indices.filter { timeline.bars[$0].outcome == "pass" } + timeline.bars.indices.filter { timeline.bars[$0].outcome != "pass" }
    for index in order {
      svg += bar(timeline.bars[index], scale: scale, place: layout.places[index])
    }
    svg += waits(timeline, layout: layout, scale: scale)
    svg += concurrency(timeline, top: rows + 6, scale: scale)
    return svg + "</svg>"
  }

  static func bar(_ bar: RunTimeline.Bar, scale: Double, place: TimingsRows.Place) -> HTML {
    let x = labelWidth + bar.start * scale
    let width = max(minimumBarWidth, bar.duration * scale)
    let y = Double(place.row) * rowHeight + 3
    let lane = HTMLText.escaped(bar.lane)
    let classes = "bar \(PageStyle.safeClass(bar.outcome))\(bar.onCriticalPath ? " critical" : "")"
    let what: HTML = "\(lane), attempt \(bar.attempt): \(HTMLText.escaped(bar.outcome)), \(PageStyle.seconds(bar.duration)) from \(PageStyle.seconds(bar.start))\(bar.onCriticalPath ? ", on the critical path" : "")"
    var svg: HTML = "<g class=\"\(classes)\" data-lane=\"\(lane)\" data-attempt=\"\(bar.attempt)\" data-outcome=\"\(PageStyle.safeClass(bar.outcome))\" data-critical=\"\(bar.onCriticalPath)\" data-row=\"\(place.row)\">"
    svg += "<title>\(what)</title>"
    svg += "<rect x=\"\(PageStyle.number(x))\" y=\"\(PageStyle.number(y))\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(rowHeight - 6))\" rx=\"2\"/>"
    // The label inside the bar where it fits, else after it (its row keeps the room); the title and the table carry it everywhere.
    let needed = Double(bar.lane.count) * characterWidth + 6
    if width >= needed {
      svg += "<text class=\"inside\" x=\"\(PageStyle.number(x + 3))\" y=\"\(PageStyle.number(y + 14))\" aria-hidden=\"true\">\(lane)</text>"
    } else if place.labelled {
      svg += "<text class=\"outside\" x=\"\(PageStyle.number(x + width + 3))\" y=\"\(PageStyle.number(y + 14))\" aria-hidden=\"true\">\(lane)</text>"
    } else if width > 40 {
      let shown = String(bar.lane.prefix(max(1, Int((width - 6) / characterWidth) - 1))) + "…"
      svg += "<text class=\"inside\" x=\"\(PageStyle.number(x + 3))\" y=\"\(PageStyle.number(y + 14))\" aria-hidden=\"true\">\(HTMLText.escaped(shown))</text>"
    }
    return svg + "</g>\n"
  }

  /// Per lane that waited for a job slot (or a pool) after its needs were done, a thin line from the end of its
  /// last need to its first attempt, along the foot of that attempt's row (between bars, so the lane that held the
  /// slot meanwhile does not hide it), with a title saying how long.
  static func waits(_ timeline: RunTimeline, layout: TimingsRows, scale: Double) -> HTML {
    var svg: HTML = ""
    // Drawn only where every slot the run used was taken as the wait began: a lane that started late for
    // another reason (duet's own start) did not wait for a slot.
    func busy(at time: Double) -> Bool { (timeline.concurrency.last { $0.time <= time + 0.001 }?.running ?? 0) >= timeline.slots }
    for row in timeline.lanes {
      guard let waited = row.waited, let start = row.start, waited * scale >= 2, busy(at: start - waited),
            let index = timeline.bars.indices.first(where: { timeline.bars[$0].lane == row.lane }) else { continue }
      let y = Double(layout.places[index].row + 1) * rowHeight - 1
      let from = labelWidth + (start - waited) * scale, to = labelWidth + start * scale
      let lane = HTMLText.escaped(row.lane)
      svg += "<g class=\"wait\" data-lane=\"\(lane)\" data-waited=\"\(DurationText.fixed(waited, "%.3f"))\"><title>\(lane) waited \(PageStyle.seconds(waited)) for a job slot after its needs were done</title>"
      svg += "<line x1=\"\(PageStyle.number(from))\" y1=\"\(PageStyle.number(y))\" x2=\"\(PageStyle.number(to))\" y2=\"\(PageStyle.number(y))\"/>"
      svg += "<line x1=\"\(PageStyle.number(from))\" y1=\"\(PageStyle.number(y - 5))\" x2=\"\(PageStyle.number(from))\" y2=\"\(PageStyle.number(y))\"/></g>\n"
    }
    return svg
  }

  /// The concurrency row: how many attempts ran at each moment, a step line as cargo's `--timings` draws it.
  static func concurrency(_ timeline: RunTimeline, top: Double, scale: Double) -> HTML {
    let peak = max(timeline.concurrency.map(\.running).max() ?? 0, 1)
    let bottom = top + concurrencyHeight - 4
    func y(_ running: Int) -> String { PageStyle.number(bottom - Double(running) / Double(peak) * (concurrencyHeight - 8)) }
    var points: [String] = ["\(PageStyle.number(labelWidth)),\(y(0))"]
    var previous = 0
    for point in timeline.concurrency {
      let x = PageStyle.number(labelWidth + point.time * scale)
      points.append("\(x),\(y(previous))")
      points.append("\(x),\(y(point.running))")
      previous = point.running
    }
    var svg: HTML = "<g id=\"concurrency\" data-peak=\"\(peak)\"><title>Lanes running over time: up to \(peak) at once on \(timeline.slots) job slot(s)</title>"
    svg += "<text x=\"4\" y=\"\(PageStyle.number(top + 14))\">running</text><text x=\"4\" y=\"\(PageStyle.number(top + 28))\">up to \(peak)</text>"
    svg += "<line class=\"grid\" x1=\"\(PageStyle.number(labelWidth))\" y1=\"\(PageStyle.number(bottom))\" x2=\"\(PageStyle.number(labelWidth + chartWidth))\" y2=\"\(PageStyle.number(bottom))\"/>"
    svg += "<polyline class=\"running\" points=\"\(points.joined(separator: " "))\"/></g>\n"
    return svg
  }

  /// Every lane: outcome, attempts, start, time, wait for its needs, its needs, critical or not.
  static func table(_ timeline: RunTimeline) -> HTML {
    var html: HTML = "<h2>Lanes</h2>\n<table id=\"lanes\">\n<thead><tr><th scope=\"col\">lane</th><th scope=\"col\">outcome</th><th scope=\"col\">attempts</th>"
    html += "<th scope=\"col\">start</th><th scope=\"col\">time</th><th scope=\"col\">waited after needs</th><th scope=\"col\">needs</th><th scope=\"col\">critical path</th></tr></thead>\n<tbody>\n"
    for row in timeline.lanes {
      html += "<tr data-lane=\"\(HTMLText.escaped(row.lane))\"><td>\(HTMLText.escaped(row.lane))</td>"
      html += "<td><span class=\"swatch \(PageStyle.safeClass(row.outcome))\" aria-hidden=\"true\"></span>\(HTMLText.escaped(row.outcome))</td>"
      html += "<td class=\"num\">\(row.attempts)</td><td class=\"num\">\(row.start.map(PageStyle.seconds) ?? "-")</td>"
      html += "<td class=\"num\">\(row.attempts > 0 ? PageStyle.seconds(row.duration) : "-")</td><td class=\"num\">\(row.waited.map(PageStyle.seconds) ?? "-")</td>"
      html += "<td>\(HTMLText.escaped(row.needs.joined(separator: ", ")))</td><td>\(row.onCriticalPath ? "yes" : "")</td></tr>\n"
    }
    return html + "</tbody>\n</table>"
  }
}
