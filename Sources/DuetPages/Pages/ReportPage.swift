import DuetSupport
import DuetHistory

/// `duet report --html`: the history report as one HTML page that stands
/// alone: the flaky and failing lanes named in words, then the flaky tests
/// (by `duet flaky --tests`'s rule, when a lane has `reports:`); per lane p50/p95 with an
/// SVG sparkline of its p50 over time (all on one scale, so jitter of a few
/// milliseconds looks flat); a larger chart (p50 and p95, with axes) of the
/// slowest lane; the time the cache saved per week; the flaky map (lanes × runs,
/// newest first, each cell a symbol and a title as well as a colour); the
/// cache-hit rate, and the runs whose verdict failed. Every text from the store
/// goes through `HTMLText.escaped`.
package enum ReportPage {
  package static func html(_ report: HistoryReport, time: (Double) -> String) -> String {
    let title = "duet report: \(report.runs) run(s)"
    var body: HTML = "<h1>\(HTMLText.escaped(title))</h1>\n"
    body += "<p id=\"cache\">Cache hits: \(ReportText.rate(report)) of lane runs (\(report.cacheHits) of \(report.settled)). "
    body += "Runs whose verdict failed: \(report.failedRunCount).</p>\n"
    body += lanesInWords(report)
    body += testsInWords(report.flakyTests)
    body += quarantine(report)
    body += lanesTable(report)
    if let slowest = report.slowest { body += slowestChart(slowest) }
    body += savedByCache(report)
    body += flakyMap(report, time: time)
    body += failedRuns(report, time: time)
    return PageStyle.page(title: title, body: body)
  }

  /// The flaky lanes (failed, then passed on a retry) and the failing ones, named in words.
  static func lanesInWords(_ report: HistoryReport) -> HTML {
    func named(_ lanes: [HistoryReport.Lane], _ count: (HistoryReport.Lane) -> Int) -> HTML {
      lanes.map { (lane: HistoryReport.Lane) -> HTML in "<strong>\(lane.name)</strong> (in \(count(lane)) of the \(lane.durations.count) run(s) it ran in)" }.joined(separator: ", ")
    }
    let flaky = report.lanes.filter { $0.retriedRuns > 0 }.sorted { ($0.retriedRuns, $1.name) > ($1.retriedRuns, $0.name) }
    let failing = report.lanes.filter { $0.failedRuns > 0 }.sorted { ($0.failedRuns, $1.name) > ($1.failedRuns, $0.name) }
    var html: HTML = "<p id=\"flaky-lanes\">"
    if let words = report.flakyLanes {
      // By `duet flaky`'s rule: both outcomes on one fingerprint across runs, or a pass on a retry.
      let named = words.lanes.map { (lane) -> HTML in "<strong>\(lane.name)</strong> (\(lane.why))" }.joined(separator: ", ")
      html += words.lead.map { "\(HTMLText.escaped($0)) \(named)." } ?? HTMLText.escaped(FlakyLanesInWords.noneFlaky)
    } else {
      html += flaky.isEmpty ? "No lane was flaky in the window (none failed and then passed on a retry)." : "Flaky lanes, which failed and then passed on a retry: \(named(flaky, \.retriedRuns))."
    }
    html += "</p>\n<p id=\"failing-lanes\">"
    html += failing.isEmpty ? "No lane failed in the window." : "Lanes that failed: \(named(failing, \.failedRuns))."
    return html + "</p>\n"
  }

  /// The flaky tests named in words, as `duet report` says them; nothing when no lane has `reports:`.
  static func testsInWords(_ words: FlakyTestsInWords?) -> HTML {
    guard let words else { return "" }
    guard let lead = words.lead else { return "<p id=\"flaky-tests\">\(HTMLText.escaped(FlakyTestsInWords.noneFlaky))</p>\n" }
    let named = words.tests.map { (test) -> HTML in "<strong>\(test.name)</strong> in \(test.lane) (\(test.why))" }
      .joined(separator: ", ")
    return "<p id=\"flaky-tests\">\(HTMLText.escaped(lead)) \(named).</p>\n"
  }

  /// The lanes the quarantine excused in the window, and the entries of `lanes/quarantine.yaml`, active or past.
  static func quarantine(_ report: HistoryReport) -> HTML {
    let excused = report.lanes.filter { $0.excusedRuns > 0 }
    guard !excused.isEmpty || !report.quarantine.isEmpty else { return "" }
    var html: HTML = "<h2>Quarantine</h2>\n<p id=\"excused-lanes\">"
    html += excused.isEmpty ? "No lane was excused by the quarantine in the window."
      : "Lanes that passed only because the quarantine excused a failure: " + excused.map { (lane) -> HTML in
        "<strong>\(lane.name)</strong> (in \(lane.excusedRuns) of the \(lane.durations.count) run(s) it ran in)" }.joined(separator: ", ") + "."
    html += "</p>\n"
    guard !report.quarantine.isEmpty else { return html }
    html += "<table id=\"quarantine\">\n<thead><tr><th scope=\"col\">quarantined (lanes/quarantine.yaml)</th><th scope=\"col\">until</th><th scope=\"col\">reason</th></tr></thead>\n<tbody>\n"
    for entry in report.quarantine {
      html += "<tr><td>\(HTMLText.escaped(entry.label))</td><td>\(HTMLText.escaped(entry.until))\(entry.active ? "" : " (past: its failures block again)")</td><td>\(HTMLText.escaped(entry.reason))</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n"
  }

  /// The top of every sparkline: the largest point of any lane, and at least a second, so a few milliseconds look flat.
  static func sparkTop(_ report: HistoryReport) -> Double {
    report.lanes.map { HistoryReport.buckets($0.durations, count: 30, p: 0.5).max() ?? 0 }.reduce(1.0, max)
  }

  static func lanesTable(_ report: HistoryReport) -> HTML {
    let top = sparkTop(report)
    var html: HTML = "<h2>Durations per lane</h2>\n<p>Each sparkline runs from 0 (bottom) to \(PageStyle.seconds(top)) (top), the same for every lane.</p>\n"
    html += "<table id=\"lanes\">\n<thead><tr><th scope=\"col\">lane</th><th scope=\"col\">runs</th><th scope=\"col\">p50</th>"
    html += "<th scope=\"col\">p95</th><th scope=\"col\">p50 over time</th><th scope=\"col\">cached</th><th scope=\"col\">failed runs</th><th scope=\"col\">failed, then passed</th></tr></thead>\n<tbody>\n"
    for lane in report.lanes {
      let points = HistoryReport.buckets(lane.durations, count: 30, p: 0.5)
      html += "<tr data-lane=\"\(HTMLText.escaped(lane.name))\"><td>\(HTMLText.escaped(lane.name))</td><td class=\"num\">\(lane.durations.count)</td>"
      let ran = !lane.durations.isEmpty
      html += "<td class=\"num\">\(ran ? PageStyle.seconds(lane.p50) : "-")</td><td class=\"num\">\(ran ? PageStyle.seconds(lane.p95) : "-")</td>"
      html += "<td>\(sparkline(points, top: top, label: "p50 of \(HTMLText.escaped(lane.name)) over \(points.count) spans of runs, from \(PageStyle.seconds(points.min() ?? 0)) to \(PageStyle.seconds(points.max() ?? 0))"))</td>"
      html += "<td class=\"num\">\(lane.cached)</td><td class=\"num\">\(lane.failedRuns)</td><td class=\"num\">\(lane.retriedRuns)</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n"
  }

  /// A small line of `points` from 0 to `top`, with `label` (already escaped) as its text alternative.
  static func sparkline(_ points: [Double], top: Double, label: HTML, width: Double = 120, height: Double = 20) -> HTML {
    guard points.count > 1 else { return "<span class=\"spark\" role=\"img\" aria-label=\"\(label)\">-</span>" }
    let high = max(top, points.max()!, 0.001)
    let coordinates = points.enumerated().map { index, value in
      "\(PageStyle.number(Double(index) * width / Double(points.count - 1))),\(PageStyle.number(height - 1 - value / high * (height - 2)))"
    }
    return "<svg class=\"spark\" role=\"img\" aria-label=\"\(label)\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(height))\"><title>\(label)</title><polyline points=\"\(coordinates.joined(separator: " "))\"/></svg>"
  }

  /// The runs a p95 is taken over at the least (below it, a p95 is only the slowest run).
  static let p95Runs = 10

  /// The slowest lane's p50 and p95 over time, larger, with a time axis (y) and a runs axis (x).
  static func slowestChart(_ lane: HistoryReport.Lane) -> HTML {
    let runs = lane.durations.count, size = max(1, (runs + 59) / 60)
    // The p95 of fewer than 10 runs is their slowest: its line starts where 10 runs lie behind a point.
    let p50 = HistoryReport.rolling(lane.durations, count: 60, p: 0.5)
    let p95 = HistoryReport.rolling(lane.durations, count: 60, p: 0.95).enumerated().map { min(runs, ($0.offset + 1) * size) >= p95Runs ? $0.element : nil }
    let highest = (p95.compactMap { $0 } + p50).max() ?? 0
    let (yStep, yCount) = PageStyle.ticks(highest), (xStep, xCount) = PageStyle.ticks(Double(runs), whole: true)
    let left = 60.0, width = 800.0, height = 200.0, top = 10.0
    let high = yStep * Double(yCount), last = xStep * Double(xCount)
    // A point is drawn at the newest run of its span of runs.
    func x(_ run: Double) -> Double { left + run / last * width }
    func y(_ seconds: Double) -> Double { top + height - seconds / high * height }
    func line(_ points: [Double?], _ style: String) -> HTML {
      let coordinates = points.enumerated().compactMap { point in
        point.element.map { "\(PageStyle.number(x(Double(min(runs, (point.offset + 1) * size))))),\(PageStyle.number(y($0)))" }
      }
      return coordinates.isEmpty ? "" : "<polyline style=\"\(style)\" points=\"\(coordinates.joined(separator: " "))\"/>"
    }
    let name = HTMLText.escaped(lane.name)
    let p95Words: HTML = runs >= p95Runs ? "p95 (dashed) from the \(p95Runs)th run on" : "no p95 line until \(p95Runs) runs"
    var html: HTML = "<h2>Slowest lane: \(name)</h2>\n<p>p50 (solid) of each run's total over the \(p95Runs) runs up to it (or as many as there were), \(p95Words), \(runs) run(s) in all.</p>\n"
    html += "<svg id=\"slowest\" class=\"spark\" role=\"img\" aria-label=\"p50\(runs >= p95Runs ? " and p95" : "") of \(name) over \(runs) run(s), up to \(PageStyle.seconds(highest))\" "
    html += "width=\"\(PageStyle.number(left + width + 30))\" height=\"\(PageStyle.number(top + height + 40))\">"
    html += "<g class=\"axis y\">"
    for tick in 0...yCount {
      let at = PageStyle.number(y(yStep * Double(tick)))
      html += "<line class=\"grid\" x1=\"\(PageStyle.number(left))\" y1=\"\(at)\" x2=\"\(PageStyle.number(left + width))\" y2=\"\(at)\"/>"
      html += "<text class=\"tick\" x=\"\(PageStyle.number(left - 6))\" y=\"\(at)\" dy=\"4\" text-anchor=\"end\">\(PageStyle.tick(yStep * Double(tick), step: yStep))</text>"
    }
    html += "</g><g class=\"axis x\"><line class=\"tick\" x1=\"\(PageStyle.number(left))\" y1=\"\(PageStyle.number(top + height))\" x2=\"\(PageStyle.number(left + width))\" y2=\"\(PageStyle.number(top + height))\"/>"
    for tick in 0...xCount {
      let at = PageStyle.number(x(xStep * Double(tick)))
      html += "<line class=\"tick\" x1=\"\(at)\" y1=\"\(PageStyle.number(top + height))\" x2=\"\(at)\" y2=\"\(PageStyle.number(top + height + 5))\"/>"
      html += "<text class=\"tick\" x=\"\(at)\" y=\"\(PageStyle.number(top + height + 18))\" text-anchor=\"middle\">\(Int(xStep) * tick)</text>"
    }
    html += "<text x=\"\(PageStyle.number(left + width / 2))\" y=\"\(PageStyle.number(top + height + 36))\" text-anchor=\"middle\">runs, oldest to newest</text></g>"
    html += line(p50, "stroke-width:2") + line(p95, "stroke-dasharray:5 3") + "</svg>\n"
    return html
  }

  /// The time the cache saved per ISO week: each cached lane run counted as its lane's median passing attempt.
  static func savedByCache(_ report: HistoryReport) -> HTML {
    var html: HTML = "<h2>Time saved by the cache, per week</h2>\n"
    guard !report.savedByWeek.isEmpty else { return html + "<p id=\"saved\">No lane run was served from the cache in the window.</p>\n" }
    html += "<p>Each cached lane run is counted as its lane's median passing attempt in the window; weeks are ISO weeks in UTC.</p>\n"
    html += "<table id=\"saved\">\n<thead><tr><th scope=\"col\">week</th><th scope=\"col\">from</th><th scope=\"col\">cached lane runs</th>"
    html += "<th scope=\"col\">time saved (estimate)</th><th scope=\"col\"><span class=\"visually-hidden\">bar</span></th></tr></thead>\n<tbody>\n"
    let most = max(report.savedByWeek.map(\.seconds).max() ?? 0, 0.001)
    for week in report.savedByWeek {
      let note = week.unestimated > 0 ? " (\(week.unestimated) with no passing run to estimate from)" : ""
      html += "<tr data-week=\"\(HTMLText.escaped(week.label))\"><td>\(HTMLText.escaped(week.label))</td><td>\(HTMLText.escaped(week.from))</td><td class=\"num\">\(week.hits)\(note)</td>"
      html += "<td class=\"num\">\(PageStyle.seconds(week.seconds))</td><td><svg class=\"saved-bar\" width=\"200\" height=\"12\" aria-hidden=\"true\">"
      html += "<rect x=\"0\" y=\"1\" width=\"\(PageStyle.number(max(1, week.seconds / most * 200)))\" height=\"10\"/></svg></td></tr>\n"
    }
    return html + "</tbody>\n</table>\n"
  }

  static let symbols: [HistoryReport.Mark: (String, String, String)] = [
    .absent: ("", "absent", "not in this run"), .pass: ("✓", "pass", "passed"), .retriedPass: ("↻", "flaky", "failed, then passed"),
    .fail: ("✗", "fail", "failed"), .cached: ("○", "cached", "cached"), .other: ("–", "skipped", "skipped or cancelled"),
    .excused: ("!", "excused", "failed, excused by the quarantine"),
  ]

  /// The flaky map's lane names are cut to this many characters (the row's title holds the whole name).
  static let mapLabelCharacters = 22

  /// Lanes × the newest runs, newest first, in at most 1,060 pixels: a cell per lane and run, symbol and title as well as colour.
  static func flakyMap(_ report: HistoryReport, time: (Double) -> String) -> HTML {
    let runs = report.mapRuns.count
    let label = 160.0, cell = min(20, (900 / Double(max(runs, 1))).rounded(.down)), row = 20.0
    let lanes = report.lanes.filter { $0.failedRuns + $0.retriedRuns > 0 || report.lanes.count <= 40 }
    let width = label + Double(runs) * cell + 10, height = 22 + Double(lanes.count) * row
    var html: HTML = "<h2>Flaky map: the newest \(runs) run(s), newest first</h2>\n"
    html += "<p>✓ passed, ↻ failed then passed, ✗ failed, ! failed and excused by the quarantine, ○ cached, – skipped or cancelled; the newest run is the left column.</p>\n"
    html += "<svg id=\"flaky-map\" role=\"img\" aria-label=\"How each lane ended in the newest \(runs) run(s), newest first\" width=\"\(PageStyle.number(width))\" height=\"\(PageStyle.number(height))\">\n"
    html += "<text x=\"\(PageStyle.number(label))\" y=\"12\">← newest</text>"
    // "oldest" at the map's right end where the two words fit apart.
    html += Double(runs) * cell >= 150 ? "<text x=\"\(PageStyle.number(label + Double(runs) * cell))\" y=\"12\" text-anchor=\"end\">oldest →</text>\n" : "\n"
    let times = report.mapRuns.map { HTMLText.escaped(time($0.started)) }
    for (index, lane) in lanes.enumerated() {
      let y = 20 + Double(index) * row
      let name = HTMLText.escaped(lane.name)
      let shown = lane.name.count > mapLabelCharacters ? String(lane.name.prefix(mapLabelCharacters - 1)) + "…" : lane.name
      html += "<g class=\"row\" data-lane=\"\(name)\"><text x=\"0\" y=\"\(PageStyle.number(y + 14))\"><title>\(name)</title>\(HTMLText.escaped(shown))</text>"
      for (position, column) in lane.marks.indices.reversed().enumerated() {
        let (symbol, style, words) = symbols[lane.marks[column]]!
        let x = label + Double(position) * cell
        html += "<g class=\"cell \(style)\" data-mark=\"\(style)\"><title>\(name), \(times[column]): \(words)</title>"
        html += "<rect x=\"\(PageStyle.number(x + 0.5))\" y=\"\(PageStyle.number(y + 0.5))\" width=\"\(PageStyle.number(cell - 1))\" height=\"\(PageStyle.number(row - 1))\"/>"
        html += "<text x=\"\(PageStyle.number(x + cell / 2))\" y=\"\(PageStyle.number(y + 14))\">\(symbol)</text></g>"
      }
      html += "</g>\n"
    }
    return html + "</svg>\n"
  }

  static func failedRuns(_ report: HistoryReport, time: (Double) -> String) -> HTML {
    var html: HTML = "<h2>Runs whose verdict failed (newest \(report.failedRuns.count) of \(report.failedRunCount))</h2>\n<table id=\"failed-runs\">\n"
    html += "<thead><tr><th scope=\"col\">when</th><th scope=\"col\">run</th><th scope=\"col\">failing lanes</th></tr></thead>\n<tbody>\n"
    for run in report.failedRuns {
      html += "<tr><td>\(HTMLText.escaped(time(run.started)))</td><td>\(HTMLText.escaped(run.id))</td><td>\(HTMLText.escaped(run.lanes.joined(separator: ", ")))</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n"
  }
}

/// The report as terminal text: the same figures, with a sparkline of blocks.
package enum ReportText {
  static let blocks = Array("▁▂▃▄▅▆▇█")

  package static func rate(_ report: HistoryReport) -> String {
    report.settled == 0 ? "0%" : DurationText.fixed(Double(report.cacheHits) * 100 / Double(report.settled), "%.0f") + "%"
  }

  static func sparkline(_ values: [Double]) -> String {
    let points = HistoryReport.buckets(values, count: 20, p: 0.5)
    let high = max(points.max() ?? 0, 0.000_001)
    return String(points.map { blocks[max(0, min(7, Int(StoredNumber.duration($0 / high * 7.999))))] })
  }

  /// Rows of the lanes table: lane, runs, p50, p95, trend, cached, failed, failed-then-passed.
  package static func laneRows(_ report: HistoryReport) -> [[String]] {
    report.lanes.map { lane in
      // A lane that never ran (cached or skipped in every run) has no time to give: `-`, not 0.00s.
      let ran = !lane.durations.isEmpty
      return [lane.name, String(lane.durations.count), ran ? DurationText.format(lane.p50) : "-", ran ? DurationText.format(lane.p95) : "-", sparkline(lane.durations),
       String(lane.cached), String(lane.failedRuns), String(lane.retriedRuns)]
    }
  }
}
