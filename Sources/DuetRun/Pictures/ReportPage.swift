import DuetSupport

/// `duet report --html`: the history report as one HTML page that stands
/// alone: per lane p50/p95 with an SVG sparkline of its p50 over time, a larger
/// chart (p50 and p95) of the slowest lane, the flaky map (lanes × runs, each
/// cell a symbol and a title as well as a colour), the cache-hit rate, and the
/// runs whose verdict failed. Every text from the store goes through `HTMLText.escaped`.
public enum ReportPage {
  public static func html(_ report: HistoryReport, time: (Double) -> String) -> String {
    let title = "duet report: \(report.runs) run(s)"
    var body = "<h1>\(HTMLText.escaped(title))</h1>\n"
    body += "<p id=\"cache\">Cache hits: \(ReportText.rate(report)) of lane runs (\(report.cacheHits) of \(report.settled)). "
    body += "Runs whose verdict failed: \(report.failedRunCount).</p>\n"
    body += lanesTable(report)
    if let slowest = report.slowest { body += slowestChart(slowest) }
    body += flakyMap(report, time: time)
    body += failedRuns(report, time: time)
    return PageStyle.page(title: title, body: body)
  }

  static func lanesTable(_ report: HistoryReport) -> String {
    var html = "<h2>Durations per lane</h2>\n<table id=\"lanes\">\n<thead><tr><th scope=\"col\">lane</th><th scope=\"col\">runs</th><th scope=\"col\">p50</th>"
    html += "<th scope=\"col\">p95</th><th scope=\"col\">p50 over time</th><th scope=\"col\">cached</th><th scope=\"col\">failed runs</th><th scope=\"col\">failed, then passed</th></tr></thead>\n<tbody>\n"
    for lane in report.lanes {
      let points = HistoryReport.buckets(lane.durations, count: 30, p: 0.5)
      html += "<tr data-lane=\"\(HTMLText.escaped(lane.name))\"><td>\(HTMLText.escaped(lane.name))</td><td class=\"num\">\(lane.durations.count)</td>"
      html += "<td class=\"num\">\(PageStyle.seconds(lane.p50))</td><td class=\"num\">\(PageStyle.seconds(lane.p95))</td>"
      html += "<td>\(sparkline(points, label: "p50 of \(HTMLText.escaped(lane.name)) over \(points.count) spans of runs, from \(PageStyle.seconds(points.min() ?? 0)) to \(PageStyle.seconds(points.max() ?? 0))"))</td>"
      html += "<td class=\"num\">\(lane.cached)</td><td class=\"num\">\(lane.failedRuns)</td><td class=\"num\">\(lane.retriedRuns)</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n"
  }

  /// A small line of `points`, with `label` (already escaped) as its text alternative.
  static func sparkline(_ points: [Double], label: String, width: Double = 120, height: Double = 20) -> String {
    guard points.count > 1 else { return "<span class=\"spark\" role=\"img\" aria-label=\"\(label)\">-</span>" }
    let high = max(points.max()!, 0.001)
    let coordinates = points.enumerated().map { index, value in
      "\(PageStyle.number(Double(index) * width / Double(points.count - 1))),\(PageStyle.number(height - 1 - value / high * (height - 2)))"
    }
    return "<svg class=\"spark\" role=\"img\" aria-label=\"\(label)\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(height))\"><title>\(label)</title><polyline points=\"\(coordinates.joined(separator: " "))\"/></svg>"
  }

  /// The slowest lane's p50 and p95 over time, larger.
  static func slowestChart(_ lane: HistoryReport.Lane) -> String {
    let p50 = HistoryReport.rolling(lane.durations, count: 60, p: 0.5), p95 = HistoryReport.rolling(lane.durations, count: 60, p: 0.95)
    let width = 800.0, height = 200.0, high = max(p95.max() ?? 0, 0.001)
    func line(_ points: [Double], _ style: String) -> String {
      let step = points.count > 1 ? width / Double(points.count - 1) : 0
      let coordinates = points.enumerated().map { "\(PageStyle.number(Double($0.offset) * step)),\(PageStyle.number(height - $0.element / high * (height - 10)))" }
      return "<polyline style=\"\(style)\" points=\"\(coordinates.joined(separator: " "))\"/>"
    }
    let name = HTMLText.escaped(lane.name)
    var html = "<h2>Slowest lane: \(name)</h2>\n<p>p50 (solid) and p95 (dashed) of each run's total over the runs up to it (at least 10), \(lane.durations.count) run(s) in all; the top of the chart is \(PageStyle.seconds(high)).</p>\n"
    html += "<svg id=\"slowest\" class=\"spark\" role=\"img\" aria-label=\"p50 and p95 of \(name) over time, up to \(PageStyle.seconds(high))\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(height))\">"
    html += "<line class=\"grid\" x1=\"0\" y1=\"\(PageStyle.number(height))\" x2=\"\(PageStyle.number(width))\" y2=\"\(PageStyle.number(height))\"/>"
    html += line(p50, "stroke-width:2") + line(p95, "stroke-dasharray:5 3") + "</svg>\n"
    return html
  }

  static let symbols: [HistoryReport.Mark: (String, String, String)] = [
    .absent: ("", "absent", "not in this run"), .pass: ("✓", "pass", "passed"), .retriedPass: ("↻", "flaky", "failed, then passed"),
    .fail: ("✗", "fail", "failed"), .cached: ("○", "cached", "cached"), .other: ("–", "skipped", "skipped or cancelled"),
  ]

  /// Lanes × the newest runs: a cell per lane and run, symbol and title as well as colour.
  static func flakyMap(_ report: HistoryReport, time: (Double) -> String) -> String {
    var html = "<h2>Flaky map: the newest \(report.mapRuns.count) run(s), oldest first</h2>\n"
    html += "<p>✓ passed, ↻ failed then passed, ✗ failed, ○ cached, – skipped or cancelled.</p>\n<table id=\"flaky-map\">\n<tbody>\n"
    let times = report.mapRuns.map { HTMLText.escaped(time($0.started)) }
    for lane in report.lanes where lane.failedRuns + lane.retriedRuns > 0 || report.lanes.count <= 40 {
      html += "<tr data-lane=\"\(HTMLText.escaped(lane.name))\"><th scope=\"row\">\(HTMLText.escaped(lane.name))</th>"
      for (column, mark) in lane.marks.enumerated() {
        let (symbol, style, words) = symbols[mark]!
        html += "<td class=\"cell \(style)\" data-mark=\"\(style)\" title=\"\(HTMLText.escaped(lane.name)), \(times[column]): \(words)\">\(symbol)</td>"
      }
      html += "</tr>\n"
    }
    return html + "</tbody>\n</table>\n"
  }

  static func failedRuns(_ report: HistoryReport, time: (Double) -> String) -> String {
    var html = "<h2>Runs whose verdict failed (newest \(report.failedRuns.count) of \(report.failedRunCount))</h2>\n<table id=\"failed-runs\">\n"
    html += "<thead><tr><th scope=\"col\">when</th><th scope=\"col\">run</th><th scope=\"col\">failing lanes</th></tr></thead>\n<tbody>\n"
    for run in report.failedRuns {
      html += "<tr><td>\(HTMLText.escaped(time(run.started)))</td><td>\(HTMLText.escaped(run.id))</td><td>\(HTMLText.escaped(run.lanes.joined(separator: ", ")))</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n"
  }
}

/// The report as terminal text: the same figures, with a sparkline of blocks.
public enum ReportText {
  static let blocks = Array("▁▂▃▄▅▆▇█")

  public static func rate(_ report: HistoryReport) -> String {
    report.settled == 0 ? "0%" : DurationText.fixed(Double(report.cacheHits) * 100 / Double(report.settled), "%.0f") + "%"
  }

  public static func sparkline(_ values: [Double]) -> String {
    let points = HistoryReport.buckets(values, count: 20, p: 0.5)
    let high = max(points.max() ?? 0, 0.000_001)
    return String(points.map { blocks[max(0, min(7, Int(StoredNumber.duration($0 / high * 7.999))))] })
  }

  /// Rows of the lanes table: lane, runs, p50, p95, trend, cached, failed, failed-then-passed.
  public static func laneRows(_ report: HistoryReport) -> [[String]] {
    report.lanes.map { lane in
      [lane.name, String(lane.durations.count), DurationText.format(lane.p50), DurationText.format(lane.p95), sparkline(lane.durations),
       String(lane.cached), String(lane.failedRuns), String(lane.retriedRuns)]
    }
  }
}
