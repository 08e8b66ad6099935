import DuetSupport

/// `duet verify --timings`: one HTML page that stands alone (inline SVG and
/// CSS, no script, nothing from the network) with the run's lanes on their job
/// slots, coloured and patterned by outcome, the critical path outlined, and a
/// table of every lane with its wait for its needs. Every text from the tree
/// goes through `HTMLText.escaped`.
public enum TimingsPage {
  static let chartWidth = 1000.0
  static let labelWidth = 70.0
  static let rowHeight = 26.0

  public static func html(_ timeline: RunTimeline) -> String {
    let title = "duet verify timings: \(timeline.verdict.uppercased()) in \(PageStyle.seconds(timeline.duration))"
    var body = "<h1>\(HTMLText.escaped(title))</h1>\n"
    body += "<p>Run \(HTMLText.escaped(timeline.runID)): \(timeline.lanes.count) lane(s) on \(timeline.slots) job slot(s). "
    body += "Critical path (outlined, \(timeline.criticalPath.count) lane(s)): \(HTMLText.escaped(pathText(timeline.criticalPath)).nonEmpty ?? "none").</p>\n"
    body += PageStyle.legend(["pass", "retried", "fail", "timeout", "interrupted"]) + "\n"
    body += chart(timeline) + "\n"
    body += table(timeline)
    return PageStyle.page(title: title, body: body)
  }

  /// The path's lanes, the middle left out past 12 (the table marks every one).
  static func pathText(_ path: [String]) -> String {
    path.count <= 12 ? path.joined(separator: " → ") : (path.prefix(5) + ["…"] + path.suffix(5)).joined(separator: " → ")
  }

  /// The Gantt chart: one row per job slot, one bar per attempt, each with a `<title>` saying what it is.
  static func chart(_ timeline: RunTimeline) -> String {
    let scale = chartWidth / max(timeline.duration, 0.001)
    let height = Double(max(timeline.slots, 1)) * rowHeight + 24
    let width = labelWidth + chartWidth + 40
    var svg = "<svg id=\"gantt\" role=\"img\" aria-labelledby=\"gantt-title\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(height))\" "
    svg += "viewBox=\"0 0 \(PageStyle.number(width)) \(PageStyle.number(height))\">\n"
    svg += "<title id=\"gantt-title\">Lanes on job slots over \(PageStyle.seconds(timeline.duration)); the table below lists the same</title>\n"
    for tick in 0...10 {
      let x = labelWidth + Double(tick) * chartWidth / 10
      svg += "<line class=\"grid\" x1=\"\(PageStyle.number(x))\" y1=\"0\" x2=\"\(PageStyle.number(x))\" y2=\"\(PageStyle.number(height - 18))\"/>"
      svg += "<text x=\"\(PageStyle.number(x))\" y=\"\(PageStyle.number(height - 4))\" text-anchor=\"middle\">\(PageStyle.seconds(timeline.duration * Double(tick) / 10))</text>\n"
    }
    for slot in 0..<timeline.slots {
      svg += "<text x=\"4\" y=\"\(PageStyle.number(Double(slot) * rowHeight + 17))\">slot \(slot + 1)</text>\n"
    }
    for bar in timeline.bars { svg += self.bar(bar, scale: scale) }
    return svg + "</svg>"
  }

  static func bar(_ bar: RunTimeline.Bar, scale: Double) -> String {
    let x = labelWidth + bar.start * scale
    let width = max(1, bar.duration * scale)
    let y = Double(bar.slot) * rowHeight + 3
    let lane = HTMLText.escaped(bar.lane)
    let classes = "bar \(PageStyle.safeClass(bar.outcome))\(bar.onCriticalPath ? " critical" : "")"
    let what = "\(lane), attempt \(bar.attempt): \(HTMLText.escaped(bar.outcome)), \(PageStyle.seconds(bar.duration)) from \(PageStyle.seconds(bar.start))\(bar.onCriticalPath ? ", on the critical path" : "")"
    var svg = "<g class=\"\(classes)\" data-lane=\"\(lane)\" data-attempt=\"\(bar.attempt)\" data-outcome=\"\(PageStyle.safeClass(bar.outcome))\" data-critical=\"\(bar.onCriticalPath)\">"
    svg += "<title>\(what)</title>"
    svg += "<rect x=\"\(PageStyle.number(x))\" y=\"\(PageStyle.number(y))\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(rowHeight - 6))\" rx=\"2\"/>"
    if width > 40 {
      // A label only where it fits; the bar's title and the table carry it everywhere.
      let shown = bar.lane.count > Int(width / 7) ? String(bar.lane.prefix(max(1, Int(width / 7) - 1))) + "…" : bar.lane
      svg += "<text x=\"\(PageStyle.number(x + 3))\" y=\"\(PageStyle.number(y + 14))\" aria-hidden=\"true\">\(HTMLText.escaped(shown))</text>"
    }
    return svg + "</g>\n"
  }

  /// Every lane: outcome, attempts, start, time, wait for its needs, its needs, critical or not.
  static func table(_ timeline: RunTimeline) -> String {
    var html = "<h2>Lanes</h2>\n<table id=\"lanes\">\n<thead><tr><th scope=\"col\">lane</th><th scope=\"col\">outcome</th><th scope=\"col\">attempts</th>"
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
