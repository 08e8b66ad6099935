@testable import DuetRun
import Foundation
import Testing
@testable import DuetPages
@testable import DuetHistory

/// `duet verify --timings` and `duet trace`, opened in headless Chromium (issue 32).
@Suite(.serialized) struct PicturesCLITests {
  static let manifest = """
    version: 1
    lanes:
      # A sleep that is the point: the bars' lengths are the lanes' times.
      - {name: build, sh: 'sleep 0.3'}
      - {name: lint, sh: 'sleep 0.1'}
      - {name: test, sh: 'sleep 0.2', needs: [build]}
      - {name: ui, sh: 'test -f .duet/once || { touch .duet/once; exit 1; }; sleep 0.1', needs: [test], retries: 1}
    """

  /// The bars of a dumped DOM: (lane, attempt, outcome, critical), in order.
  static func bars(_ dom: String) -> [(lane: String, attempt: String, outcome: String, critical: Bool)] {
    let pattern = try! Regex(#"<g class="bar [^"]*" data-lane="([^"]*)" data-attempt="(\d+)" data-outcome="(\w+)" data-critical="(\w+)"[^>]*>"#)
    return dom.matches(of: pattern).map { match in
      (String(match.output[1].substring!), String(match.output[2].substring!), String(match.output[3].substring!), match.output[4].substring! == "true")
    }
  }

  /// A verify with --timings writes a page the verdict block names; Chromium loads it with no console error and no
  /// reference out of the page, one bar per attempt with its lane and outcome, the critical path marked, and a table row per lane.
  @Test func timingsPageInChromium() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let run = try tree.duet("verify", "--timings", "-j", "2")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let page = tree.url.appendingPathComponent(".duet/timings.html")
    #expect(run.lines.contains("timings: \(page.path)"))
    let loaded = try Browser.load(page)
    #expect(loaded.consoleErrors == [])
    #expect(Browser.references(in: loaded.dom) == [])
    let bars = Self.bars(loaded.dom)
    #expect(bars.map { "\($0.lane)#\($0.attempt) \($0.outcome)" }.sorted() == ["build#1 pass", "lint#1 pass", "test#1 pass", "ui#1 retried", "ui#2 pass"])
    #expect(Set(bars.filter(\.critical).map(\.lane)) == ["build", "test", "ui"])
    // Text alternatives: each bar says what it is in words.
    #expect(loaded.dom.contains("<title>ui, attempt 1: retried"))
    #expect(loaded.dom.components(separatedBy: "<tr data-lane=").count - 1 == 4)
    try Browser.screenshot(page, name: "timings")
  }

  /// `--timings=FILE` writes there (from the working folder), and `duet trace` prints the same run as Trace Event JSON:
  /// one complete event per attempt with the store's durations, one track per slot.
  @Test func timingsFileAndTrace() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let run = try tree.duet("verify", "--timings=out/run.html", "-j", "2")
    #expect(run.status == 0)
    #expect(tree.exists("out/run.html"))
    #expect(try tree.duet("verify", "--timings=", "-j", "2").status == 2)
    let trace = try tree.duet("trace")
    #expect(trace.status == 0, "\(trace.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(trace.stdout.utf8)) as? [String: Any])
    let events = try #require(object["traceEvents"] as? [[String: Any]])
    for event in events { for key in ["ph", "ts", "dur", "pid", "tid"] { #expect(event[key] != nil) } }
    let complete = events.filter { $0["ph"] as? String == "X" }
    #expect(complete.count == 5)
    let store = try HistoryStore(path: tree.url.appendingPathComponent(".duet/history.sqlite").path)
    let runID = try #require(try store.recentRuns(limit: 1).first?.id)
    let stored = try store.steps(ofRuns: [runID]).filter { $0.attemptOutcome != nil }
    // The store's durations, each within the microsecond the trace's rounding
    // of a slice's end (once, from its start's clock) may move it (issue 52, item 11).
    let traced = complete.compactMap { $0["dur"] as? Int }.sorted()
    let recorded = stored.map { Int(($0.duration * 1_000_000).rounded()) }.sorted()
    #expect(traced.count == recorded.count && zip(traced, recorded).allSatisfy { abs($0 - $1) <= 1 }, "\(traced) against \(recorded)")
    let slots = Set(complete.compactMap { $0["tid"] as? Int })
    #expect(events.filter { $0["name"] as? String == "thread_name" }.compactMap { $0["tid"] as? Int }.sorted() == slots.sorted())
    #expect(try tree.duet("trace", String(runID.prefix(8))).status == 0)
    let missing = try tree.duet("trace", "no-such-run")
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("no run 'no-such-run' in the history"))
  }

  /// A store with hostile lane names (a merged store can hold any text) draws a page on which they are text:
  /// Chromium finds no script or image element, and each name comes back as the bar's data-lane.
  @Test func hostileNamesInChromium() throws {
    let tree = try FixtureTree()
    let names = ["</title><script>console.error('x')</script>", "\" onmouseover=\"alert(2)", "<img src=http://example.com/x>"]
    let steps = names.enumerated().map { index, name in
      StepRow(runID: "r", lane: name, attempt: 1, started: Double(index), duration: 1, attemptOutcome: .pass, laneOutcome: .pass,
              exitCode: 0, fingerprint: nil, logPath: nil)
    }
    let run = RunRow(id: "r", logID: "r", started: 0, ended: 3, command: "", root: "", gitCommit: nil, host: "", outcome: .pass, jobs: 1, duetVersion: "")
    try tree.write("page.html", TimingsPage.html(RunTimeline(run: run, steps: steps, needs: [:])))
    let loaded = try Browser.load(tree.url.appendingPathComponent("page.html"))
    #expect(!loaded.dom.contains("<script"))
    #expect(!loaded.dom.contains("<img"))
    #expect(loaded.consoleErrors == [])
    #expect(Self.bars(loaded.dom).count == 3)
  }

  /// A generated run of 1,000 lanes on 8 slots: the page holds 1,000 bars and 1,000 rows, loads in Chromium and renders.
  @Test func thousandLanes() throws {
    let tree = try FixtureTree()
    var steps: [StepRow] = []
    var needs: [String: [String]] = [:]
    for lane in 0..<1000 {
      let name = "lane-\(lane)"
      if lane >= 8 { needs[name] = ["lane-\(lane - 8)"] }
      steps.append(StepRow(runID: "r", lane: name, attempt: 1, started: Double(lane / 8) * 0.5, duration: 0.25 + Double(lane % 8) * 0.03,
                           attemptOutcome: lane % 97 == 0 ? .fail : .pass, laneOutcome: lane % 97 == 0 ? .fail : .pass,
                           exitCode: 0, fingerprint: "fp", logPath: nil))
    }
    let run = RunRow(id: "r", logID: "r", started: 0, ended: 63, command: "", root: "", gitCommit: nil, host: "", outcome: .fail, jobs: 8, duetVersion: "")
    let timeline = RunTimeline(run: run, steps: steps, needs: needs)
    #expect(timeline.slots == 8)
    try tree.write("page.html", TimingsPage.html(timeline))
    let page = tree.url.appendingPathComponent("page.html")
    let loaded = try Browser.load(page)
    #expect(Self.bars(loaded.dom).count == 1000)
    #expect(loaded.dom.components(separatedBy: "<tr data-lane=").count - 1 == 1000)
    #expect(Self.bars(loaded.dom).filter(\.critical).count == 125)
    try Browser.screenshot(page, name: "timings-1000-lanes", height: 700)
  }

  /// `duet report` after runs with a lane that fails once then passes on retry, and a lane that fails every other run:
  /// the text names them, and the page in Chromium has a sparkline per lane, the slowest lane's chart, the flaky map
  /// marked with symbols and titles, the failed runs, no console error and no outside reference.
  @Test func reportInChromium() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        # A sleep that is the point: the slowest lane's chart needs a lane that takes time.
        - {name: build, sh: 'sleep 0.2'}
        - {name: ui, sh: 'test -f .duet/once || { touch .duet/once; exit 1; }', retries: 1}
        - {name: odd, sh: 'if test -f .duet/odd; then rm .duet/odd; exit 1; else touch .duet/odd; fi'}
      """)
    for _ in 0..<4 { _ = try tree.duet("verify", "--no-cache") }
    let text = try tree.duet("report", "--html", "report.html")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.lines.first == "duet report: 4 run(s) in the window; cache hits 0% (0 of 12 lane runs)")
    let ui = try #require(text.lines.first { $0.hasPrefix("  ui ") })
    #expect(ui.split(separator: " ").suffix(3) == ["0", "0", "1"])
    #expect(text.stdout.contains("runs whose verdict failed (newest 2 of 2):"))
    let page = tree.url.appendingPathComponent("report.html")
    let loaded = try Browser.load(page)
    #expect(loaded.consoleErrors == [])
    #expect(Browser.references(in: loaded.dom) == [])
    #expect(loaded.dom.components(separatedBy: "<svg class=\"spark\" role=\"img\"").count - 1 == 3)
    #expect(loaded.dom.contains("<h2>Slowest lane: build</h2>"))
    #expect(loaded.dom.components(separatedBy: "data-mark=\"flaky\"").count - 1 == 1)
    #expect(loaded.dom.components(separatedBy: "data-mark=\"fail\"").count - 1 == 2)
    #expect(loaded.dom.contains("<title>ui, "))
    #expect(loaded.dom.components(separatedBy: "<td>odd</td></tr>").count - 1 == 2)
    // Issue 41, item 7: the flaky and the failing lanes in words, above the map.
    #expect(loaded.dom.contains("<p id=\"flaky-lanes\">1 lane flaky in the window: <strong>ui</strong> (passed on a retry once, 1 failure(s) in 4 run(s)).</p>"))
    #expect(loaded.dom.contains("<p id=\"failing-lanes\">Lanes that failed: <strong>odd</strong> (in 2 of the 4 run(s) it ran in).</p>"))
    try Browser.screenshot(page, name: "report", height: 1300)
  }

  /// Issue 41, item 6: a failed run whose failing lane takes milliseconds beside a lane of a second: the heading names
  /// it, its bar is drawn at least 4 px wide with its label, the legend names the critical path's outline, cached and
  /// skipped, the axis is ticked at round seconds, and a row shows how many lanes ran.
  @Test func failedRunTimingsInChromium() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        # A sleep that is the point: the axis is ticked at round seconds, so the run lasts more than one.
        - {name: tokens, sh: 'sleep 0.2'}
        - {name: swift, sh: 'sleep 1.3', needs: [tokens]}
        - {name: kotlin, sh: 'exit 1', needs: [tokens]}
        - {name: ui, sh: 'true', needs: [kotlin]}
      """)
    let run = try tree.duet("verify", "--timings", "-j", "2")
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    let page = tree.url.appendingPathComponent(".duet/timings.html")
    let loaded = try Browser.load(page)
    #expect(loaded.consoleErrors == [])
    #expect(Browser.references(in: loaded.dom) == [])
    #expect(try loaded.dom.firstMatch(of: Regex(#"<h1>duet verify timings: FAIL in [0-9.]+s: kotlin failed</h1>"#)) != nil)
    // Its label where the slot has room after it (the next lane may start on the same slot the moment it ends), its title always.
    let kotlin = try #require(loaded.dom.firstMatch(of: try Regex(#"data-lane="kotlin"[^>]*><title>kotlin, attempt 1: fail, [^<]*</title><rect [^>]*width="([0-9.]+)""#)))
    #expect(try #require(Double(String(kotlin.output[1].substring!))) >= 4)
    // tokens, then kotlin and swift: the critical path is tokens and swift (which ended last), whether or not swift took kotlin's slot.
    #expect(Set(Self.bars(loaded.dom).filter(\.critical).map(\.lane)).isSuperset(of: ["tokens", "swift"]))
    for word in ["critical path (outlined)", ">cached<", ">skipped<"] { #expect(loaded.dom.contains(word), "\(word)") }
    #expect(loaded.dom.contains("<p id=\"not-run\">Not run, so no bar: skipped: ui.</p>"))
    #expect(try loaded.dom.firstMatch(of: Regex(#"<g id="concurrency" data-peak="[12]"><title>Lanes running over time"#)) != nil)
    let ticks = loaded.dom.matches(of: try Regex(#"<text class="tick"[^>]*>([0-9.]+)s</text>"#)).compactMap { Double(String($0.output[1].substring!)) }
    #expect(ticks.count >= 2 && ticks.allSatisfy { ($0 / (ticks[1] - ticks[0])).rounded() * (ticks[1] - ticks[0]) - $0 < 1e-9 })
    #expect([0.1, 0.2, 0.5, 1.0].contains { abs(ticks[1] - ticks[0] - $0) < 1e-9 }, "\(ticks)")
    try Browser.screenshot(page, name: "timings-fail", height: 520)
  }

  /// Issue 53, item 8: a failed lane of a millisecond that the next lane on its slot follows at once was drawn under
  /// that lane's bar (`timings-fail.png` showed no `kotlin`). Every bar is on a row where no other bar covers it and
  /// has its label, and in Chromium's screenshot of the chart the failed lane's colour is on screen.
  @Test func coveredFailedLaneHasItsOwnRow() throws {
    let tree = try FixtureTree()
    func step(_ lane: String, _ start: Double, _ seconds: Double, _ outcome: AttemptOutcome) -> StepRow {
      StepRow(runID: "r", lane: lane, attempt: 1, started: start, duration: seconds, attemptOutcome: outcome,
              laneOutcome: outcome == .pass ? .pass : .fail, exitCode: 0, fingerprint: nil, logPath: nil)
    }
    let steps = [step("tokens", 0, 0.2, .pass), step("kotlin", 0.2, 0.001, .fail), step("swift", 0.201, 1.3, .pass)]
    let run = RunRow(id: "r", logID: "r", started: 0, ended: 1.501, command: "", root: "", gitCommit: nil, host: "", outcome: .fail, jobs: 2, duetVersion: "")
    let timeline = RunTimeline(run: run, steps: steps, needs: ["kotlin": ["tokens"], "swift": ["tokens"]])
    #expect(timeline.slots == 1)
    try tree.write("page.html", TimingsPage.html(timeline))
    let page = tree.url.appendingPathComponent("page.html")
    let loaded = try Browser.load(page)
    let drawn = Self.drawnBars(loaded.dom)
    #expect(drawn.count == 3)
    for (a, b) in drawn.flatMap({ a in drawn.map { (a, $0) } }) where a.lane < b.lane && a.y == b.y {
      #expect(a.x + a.width <= b.x || b.x + b.width <= a.x, "\(a.lane) and \(b.lane) overlap on one row")
    }
    #expect(drawn.allSatisfy { $0.labelled }, "\(drawn)")
    // Only the chart on screen (no legend or table swatch), so the fail colour there is the bar's.
    let chartOnly = try String(contentsOf: page, encoding: .utf8)
      .replacingOccurrences(of: "</head>", with: "<style>body > :not(svg) { display: none; }</style></head>")
    try tree.write("chart.html", chartOnly)
    let shot = try Browser.screenshot(tree.url.appendingPathComponent("chart.html"), name: "timings-covered-fail", height: 300)
    #expect(try Browser.pixels(in: shot[0], colour: (0xc6, 0x28, 0x28)) >= 20)
  }

  /// Issue 53, items 9 and 10: the legend has every colour the table uses (flaky and excused too), a lane the
  /// quarantine excused shows as excused (bar, table, a line naming it), and a lane that waited for a job slot after
  /// its needs has that wait drawn in the chart, with its title.
  @Test func flakyExcusedAndWaitsInChromium() throws {
    let tree = try FixtureTree()
    func step(_ lane: String, _ attempt: Int, _ start: Double, _ outcome: AttemptOutcome, _ laneOutcome: LaneOutcome?, excused: Bool = false) -> StepRow {
      var row = StepRow(runID: "r", lane: lane, attempt: attempt, started: start, duration: 1, attemptOutcome: outcome, laneOutcome: laneOutcome,
                        exitCode: 0, fingerprint: nil, logPath: nil)
      row.excused = excused
      return row
    }
    let steps = [step("build", 1, 0, .pass, .pass), step("unit", 1, 1, .fail, .pass, excused: true),
                 step("ui", 1, 2, .fail, nil), step("ui", 2, 3, .pass, .flaky), step("lint", 1, 4, .pass, .pass)]
    let run = RunRow(id: "r", logID: "r", started: 0, ended: 5, command: "", root: "", gitCommit: nil, host: "", outcome: .pass, jobs: 1, duetVersion: "")
    let timeline = RunTimeline(run: run, steps: steps, needs: ["unit": ["build"], "ui": ["build"]])
    try tree.write("page.html", TimingsPage.html(timeline))
    let page = tree.url.appendingPathComponent("page.html")
    let loaded = try Browser.load(page)
    #expect(loaded.consoleErrors == [])
    let legend = try #require(loaded.dom.firstMatch(of: try Regex(#"<p class="legend" id="legend">.*?</p>"#)).map { String(loaded.dom[$0.range]) })
    for outcome in ["pass", "flaky", "retried", "fail", "excused", "cached", "skipped"] {
      #expect(legend.contains("<span class=\"swatch \(outcome)\" aria-hidden=\"true\"></span>\(outcome)</span>"), "\(outcome)")
    }
    #expect(legend.contains("swatch wait"))
    #expect(Self.bars(loaded.dom).contains { $0.lane == "unit" && $0.outcome == "excused" })
    #expect(loaded.dom.contains("<tr data-lane=\"unit\"><td>unit</td><td><span class=\"swatch excused\" aria-hidden=\"true\"></span>excused</td>"))
    #expect(loaded.dom.contains("<p id=\"excused\">Excused by the quarantine (lanes/quarantine.yaml), so they did not fail the run: unit.</p>"))
    // lint needs nothing and waited 4 s for the one job slot; ui waited 1 s after build, unit none.
    #expect(loaded.dom.contains("<g class=\"wait\" data-lane=\"lint\" data-waited=\"4.000\"><title>lint waited 4.00s for a job slot after its needs were done</title>"))
    #expect(loaded.dom.contains("<g class=\"wait\" data-lane=\"ui\" data-waited=\"1.000\">"))
    #expect(!loaded.dom.contains("<g class=\"wait\" data-lane=\"unit\""))
    try Browser.screenshot(page, name: "timings-excused-waits", height: 500)
  }

  /// Issue 53, items 9 and 11: the report counts a lane's runs without its cached ones ("in 1 of the 2 run(s) it ran
  /// in", not 4), gives `-` for the p50 and p95 of a lane that never ran (not `0.00s`), draws no p95 line from fewer
  /// than 10 runs, and shows the lanes the quarantine excused and the quarantine's entries, in text and on the page.
  @Test func reportCountsWhatItSays() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        # A sleep that is the point: a lane with a time to chart.
        - {name: a, sh: 'sleep 0.2'}
        - {name: odd, sh: 'true'}
        - {name: gen, sh: 'true'}
        - {name: unit, sh: 'true'}
      """)
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - test: app.CartTest.add\n    lane: unit\n    reason: flips on CI\n    until: 2099-12-31\n")
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent(".duet"), withIntermediateDirectories: true)
    let store = try HistoryStore(path: tree.url.appendingPathComponent(".duet/history.sqlite").path)
    for run in 0..<4 {
      let id = "run-\(run)", at = 1_735_516_800.0 + Double(run) * 3600
      func step(_ lane: String, _ outcome: AttemptOutcome?, _ laneOutcome: LaneOutcome, excused: Bool = false) -> StepRow {
        var row = StepRow(runID: id, lane: lane, attempt: outcome == nil ? 0 : 1, started: at, duration: outcome == nil ? 0 : 1 + Double(run),
                          attemptOutcome: outcome, laneOutcome: laneOutcome, exitCode: 0, fingerprint: "f", logPath: nil)
        row.excused = excused
        return row
      }
      let odd = [step("odd", .pass, .pass), step("odd", .fail, .fail), step("odd", nil, .cached), step("odd", nil, .cached)][run]
      let unit = run == 0 ? step("unit", .fail, .pass, excused: true) : step("unit", .pass, .pass)
      try store.record(RunRow(id: id, logID: id, started: at, ended: at + 5, command: "duet verify", root: tree.url.path, gitCommit: nil, host: "h",
                              outcome: run == 1 ? .fail : .pass, jobs: 2, duetVersion: "0"),
                       steps: [step("a", .pass, .pass), odd, step("gen", nil, .cached), unit])
    }
    let text = try tree.duet("report", "--html", "report.html")
    #expect(text.status == 0, "\(text.stderr)")
    let gen = try #require(text.lines.first { $0.hasPrefix("  gen ") })
    #expect(gen.split(separator: " ").prefix(4) == ["gen", "0", "-", "-"], "\(gen)")
    #expect(text.lines.contains("excused by the quarantine: unit (in 1 of 4 run(s))"), "\(text.stdout)")
    #expect(text.lines.contains("quarantined (lanes/quarantine.yaml): app.CartTest.add in lane 'unit' until 2099-12-31: flips on CI"), "\(text.stdout)")
    let loaded = try Browser.load(tree.url.appendingPathComponent("report.html"))
    #expect(loaded.consoleErrors == [])
    #expect(loaded.dom.contains("<strong>odd</strong> (in 1 of the 2 run(s) it ran in)"), "\(loaded.dom)")
    #expect(loaded.dom.contains("<tr data-lane=\"gen\"><td>gen</td><td class=\"num\">0</td><td class=\"num\">-</td><td class=\"num\">-</td>"))
    let slowest = try #require(loaded.dom.firstMatch(of: try Regex(#"<svg id="slowest".*?</svg>"#)).map { String(loaded.dom[$0.range]) })
    #expect(slowest.components(separatedBy: "<polyline").count - 1 == 1, "\(slowest)")
    #expect(loaded.dom.contains("<p id=\"excused-lanes\">Lanes that passed only because the quarantine excused a failure: <strong>unit</strong> (in 1 of the 4 run(s) it ran in).</p>"))
    #expect(loaded.dom.contains("<tr><td>app.CartTest.add in lane 'unit'</td><td>2099-12-31</td><td>flips on CI</td></tr>"))
  }

  /// Issue 53, item 12: `duet trace --html FILE` writes a page that stands alone (no reference out of it, no console
  /// message in Chromium) with the very slices of `duet trace`'s JSON: the same names, starts, durations and tracks.
  @Test func traceAsAPageInChromium() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    #expect(try tree.duet("verify", "-j", "2").status == 0)
    let trace = try tree.duet("trace")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(trace.stdout.utf8)) as? [String: Any])
    let events = (object["traceEvents"] as? [[String: Any]] ?? []).filter { $0["ph"] as? String == "X" }
    let fromJSON = events.map { "\($0["name"] as? String ?? "") \($0["ts"] as? Int ?? -1) \($0["dur"] as? Int ?? -1) \($0["tid"] as? Int ?? -1)" }.sorted()
    #expect(fromJSON.count == 5)
    let written = try tree.duet("trace", "--html", "out/trace.html")
    #expect(written.status == 0, "\(written.stderr)")
    let page = tree.url.appendingPathComponent("out/trace.html")
    #expect(written.stdout == "trace: \(page.path)\n")
    let loaded = try Browser.load(page)
    #expect(loaded.consoleErrors == [])
    #expect(Browser.references(in: loaded.dom) == [])
    let pattern = try Regex(#"<g class="bar slice [^"]*" data-name="([^"]*)" data-ts="(\d+)" data-dur="(\d+)" data-tid="(\d+)">"#)
    let drawn = loaded.dom.matches(of: pattern).map { match in (1...4).map { String(match.output[$0].substring!) }.joined(separator: " ") }.sorted()
    #expect(drawn == fromJSON)
    #expect(loaded.dom.components(separatedBy: "<tr><td>").count - 1 == 5)
    #expect(try tree.duet("trace", "--html=").status == 2)
    try Browser.screenshot(page, name: "trace", height: 600)
  }

  /// The bars of a dumped DOM as drawn: lane, rectangle and whether a label is drawn with it.
  static func drawnBars(_ dom: String) -> [(lane: String, x: Double, y: Double, width: Double, labelled: Bool)] {
    let pattern = try! Regex(#"<g class="bar [^"]*" data-lane="([^"]*)"[^>]*><title>[^<]*</title><rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)"[^>]*>(?:</rect>)?(<text)?"#)
    return dom.matches(of: pattern).map { match in
      (String(match.output[1].substring!), Double(String(match.output[2].substring!))!, Double(String(match.output[3].substring!))!,
       Double(String(match.output[4].substring!))!, match.output[5].substring != nil)
    }
  }

  /// Issue 41, item 7: a store of 45 runs a day apart: the flaky map fits in 1,100 px with the newest run first, the
  /// page names the flaky lane in words, the slowest lane's chart has axes, and the time the cache saved is shown per week.
  @Test func reportOf45RunsInChromium() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true'}\n")
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent(".duet"), withIntermediateDirectories: true)
    let store = try HistoryStore(path: tree.url.appendingPathComponent(".duet/history.sqlite").path)
    let monday = 1_735_516_800.0  // 2024-12-30T00:00:00Z
    for run in 0..<45 {
      let id = "run-\(run)", at = monday + Double(run) * 86_400 + 3600
      func step(_ lane: String, _ attempt: Int, _ seconds: Double, _ outcome: AttemptOutcome?, _ laneOutcome: LaneOutcome?) -> StepRow {
        StepRow(runID: id, lane: lane, attempt: attempt, started: at, duration: seconds, attemptOutcome: outcome, laneOutcome: laneOutcome,
                exitCode: outcome == .pass ? 0 : 1, fingerprint: "f", logPath: nil)
      }
      var steps = [step("design-tokens", 1, 0.010 + Double(run % 3) * 0.002, .pass, .pass), step("swift-app", 1, 40 + Double(run % 5), .pass, .pass)]
      steps += run % 3 == 0 ? [step("kotlin-app", 1, 60 + Double(run % 4), .pass, .pass)] : [step("kotlin-app", 0, 0, nil, .cached)]
      steps += run % 8 == 5 ? [step("ui-tests", 1, 20, .fail, nil), step("ui-tests", 2, 21, .pass, .flaky)] : [step("ui-tests", 1, 20, .pass, .pass)]
      steps.append(run == 40 ? step("lint", 1, 3, .fail, .fail) : step("lint", 1, 3, .pass, .pass))
      try store.record(RunRow(id: id, logID: id, started: at, ended: at + 90, command: "duet verify", root: tree.url.path, gitCommit: nil, host: "h",
                              outcome: run == 40 ? .fail : .pass, jobs: 2, duetVersion: "0"), steps: steps)
    }
    #expect(try tree.duet("report", "--html", "report.html").status == 0)
    let page = tree.url.appendingPathComponent("report.html")
    let loaded = try Browser.load(page)
    #expect(loaded.consoleErrors == [])
    let width = try #require(loaded.dom.firstMatch(of: try Regex(#"<svg id="flaky-map"[^>]* width="([0-9.]+)""#)).flatMap { Double(String($0.output[1].substring!)) })
    #expect(width <= 1100)
    #expect(loaded.dom.contains("2 lanes flaky in the window: <strong>ui-tests</strong> (both outcomes on one fingerprint, passed on a retry 5 times, 5 failure(s) in 45 run(s), none in the last 7 days), <strong>lint</strong>"))
    #expect(loaded.dom.contains("<g class=\"axis x\">") && loaded.dom.contains("<g class=\"axis y\">"))
    // The newest run (run 44, 12 February) is the map's first column: lint passed in it; run 40's failure is the fifth.
    let lint = loaded.dom.matches(of: try Regex(#"<g class="cell \w+" data-mark="(\w+)"><title>lint, "#)).map { String($0.output[1].substring!) }
    #expect(lint.count == 45 && lint[4] == "fail" && lint.filter { $0 == "fail" }.count == 1)
    // kotlin-app was cached in 30 runs, each counted as its median passing attempt.
    #expect(loaded.dom.components(separatedBy: "<tr data-week=").count - 1 == 7)
    try Browser.screenshot(page, name: "report-45-runs", height: 1500)
  }

  /// A store whose lane names are markup (a merged store holds any text): the report's page shows them as text,
  /// and the trace gives them back as the same strings.
  @Test func hostileStoreReportAndTrace() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true'}\n")
    let names = ["</title><script>console.error('x')</script>", "\" onmouseover=\"alert(2)", "<img src=http://example.com/x>"]
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent(".duet"), withIntermediateDirectories: true)
    let store = try HistoryStore(path: tree.url.appendingPathComponent(".duet/history.sqlite").path)
    let run = RunRow(id: "run-1", logID: "log-1", started: 100, ended: 104, command: "duet verify", root: tree.url.path, gitCommit: nil,
                     host: "h", outcome: .fail, jobs: 2, duetVersion: "0")
    let steps = names.enumerated().map { index, name in
      StepRow(runID: "run-1", lane: name, attempt: 1, started: 100 + Double(index), duration: 1, attemptOutcome: index == 0 ? .fail : .pass,
              laneOutcome: index == 0 ? .fail : .pass, exitCode: 0, fingerprint: name, logPath: nil)
    }
    try store.record(run, steps: steps)
    #expect(try tree.duet("report", "--html", "report.html").status == 0)
    let loaded = try Browser.load(tree.url.appendingPathComponent("report.html"))
    #expect(!loaded.dom.contains("<script"))
    #expect(!loaded.dom.contains("<img"))
    #expect(loaded.consoleErrors == [])
    let trace = try tree.duet("trace")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(trace.stdout.utf8)) as? [String: Any])
    let events = (object["traceEvents"] as? [[String: Any]] ?? []).filter { $0["ph"] as? String == "X" }
    #expect(events.compactMap { $0["name"] as? String } == names)
    #expect(events.compactMap { ($0["args"] as? [String: String])?["fingerprint"] } == names)
  }
}
