@testable import DuetRun
import Foundation
import Testing
@testable import DuetPages
@testable import DuetHistory
@testable import DuetSupport

/// The timeline, the timings page and the trace, from rows (issue 32).
struct PicturesTests {
  static func run(started: Double = 1000, ended: Double = 1010, jobs: Int = 2) -> RunRow {
    RunRow(id: "run-1", logID: "log-1", started: started, ended: ended, command: "duet verify", root: "/t", gitCommit: nil,
           host: "h", outcome: .fail, jobs: jobs, duetVersion: "0")
  }

  static func step(_ lane: String, _ attempt: Int, _ start: Double, _ duration: Double, _ outcome: AttemptOutcome?, lane laneOutcome: LaneOutcome? = nil) -> StepRow {
    StepRow(runID: "run-1", lane: lane, attempt: attempt, started: 1000 + start, duration: duration, attemptOutcome: outcome,
            laneOutcome: laneOutcome, exitCode: outcome == .pass ? 0 : 1, fingerprint: "fp-\(lane)", logPath: nil)
  }

  /// build (0-3) and lint (0-1) in parallel; test needs build (3-5); ui needs test and fails once, then passes (5-6, 6-8); docs is cached.
  static let steps = [
    step("build", 1, 0, 3, .pass, lane: .pass), step("lint", 1, 0, 1, .pass, lane: .pass),
    step("test", 1, 3, 2, .pass, lane: .pass), step("ui", 1, 5, 1, .fail), step("ui", 2, 6, 2, .pass, lane: .flaky),
    step("docs", 0, 0, 0, nil, lane: .cached),
  ]
  static let needs = ["test": ["build"], "ui": ["test", "lint"]]

  /// Attempts go to the lowest free slot, a failed attempt that was retried is `retried`, and a lane that did not run has no bar.
  @Test func barsOnSlots() {
    let timeline = RunTimeline(run: Self.run(), steps: Self.steps, needs: Self.needs)
    #expect(timeline.slots == 2)
    #expect(timeline.bars.map(\.lane) == ["build", "lint", "test", "ui", "ui"])
    #expect(timeline.bars.map(\.slot) == [0, 1, 0, 0, 0])
    #expect(timeline.bars.map(\.outcome) == ["pass", "pass", "pass", "retried", "pass"])
  }

  /// Issue 39, item 16: a lane that started within the millisecond of slack
  /// before another ended shares its track but never overlaps it (a trace
  /// viewer shows overlapping slices on one track as nested, or drops them).
  @Test func barsOnOneTrackNeverOverlap() {
    let steps = [Self.step("a", 1, 0, 1, .pass, lane: .pass), Self.step("b", 1, 0.9996, 1, .pass, lane: .pass),
                 Self.step("c", 1, 0.5, 0.4, .pass, lane: .pass)]
    let timeline = RunTimeline(run: Self.run(), steps: steps, needs: [:])
    #expect(timeline.slots == 2)
    for (index, bar) in timeline.bars.enumerated() {
      for other in timeline.bars[(index + 1)...] where other.slot == bar.slot {
        #expect(other.start >= bar.start + bar.duration || bar.start >= other.start + other.duration, "\(bar) overlaps \(other)")
      }
    }
  }

  /// The critical path runs back from the lane that ended last through the need that ended last.
  @Test func criticalPathAndWaits() {
    let timeline = RunTimeline(run: Self.run(), steps: Self.steps, needs: Self.needs)
    #expect(timeline.criticalPath == ["build", "test", "ui"])
    let rows = Dictionary(uniqueKeysWithValues: timeline.lanes.map { ($0.lane, $0) })
    #expect(rows["lint"]?.onCriticalPath == false)
    #expect(rows["ui"]?.attempts == 2)
    #expect(rows["ui"]?.outcome == "flaky")
    #expect(rows["docs"]?.start == nil)
    #expect(rows["test"]?.waited == 0)
  }

  /// A lane started after its needs ended waited the difference.
  @Test func waitAfterNeeds() {
    let steps = [Self.step("a", 1, 0, 1, .pass, lane: .pass), Self.step("b", 1, 2.5, 1, .pass, lane: .pass)]
    let timeline = RunTimeline(run: Self.run(), steps: steps, needs: ["b": ["a"]])
    #expect(timeline.lanes.first { $0.lane == "b" }?.waited == 1.5)
  }

  /// Issue 41, item 6: a lane that waited for a job slot after its needs had ended has the lane whose slot it took
  /// (the one that ended last before it started) before it on the critical path, not only its needs.
  @Test func criticalPathCountsWaitsForASlot() {
    // One slot (-j 1): a (0-2), then b (2-5), then c, which needs only a, at 5: it waited 3 s for b's slot.
    let steps = [Self.step("a", 1, 0, 2, .pass, lane: .pass), Self.step("b", 1, 2, 3, .pass, lane: .pass), Self.step("c", 1, 5, 1, .pass, lane: .pass)]
    let timeline = RunTimeline(run: Self.run(jobs: 1), steps: steps, needs: ["c": ["a"]])
    #expect(timeline.slots == 1)
    #expect(timeline.criticalPath == ["a", "b", "c"])
    #expect(timeline.lanes.first { $0.lane == "c" }?.waited == 3)
    // Two slots: c starts the moment a ends, so nothing but its need held it.
    let free = [Self.step("a", 1, 0, 2, .pass, lane: .pass), Self.step("b", 1, 0, 3, .pass, lane: .pass), Self.step("c", 1, 2, 4, .pass, lane: .pass)]
    #expect(RunTimeline(run: Self.run(), steps: free, needs: ["c": ["a"]]).criticalPath == ["a", "c"])
    // Two slots, one free when a ended: a lane that ended between a's end and c's start (scheduling latency) is not what c waited for.
    let latency = [Self.step("a", 1, 0, 2, .pass, lane: .pass), Self.step("b", 1, 2, 0.0015, .fail, lane: .fail), Self.step("c", 1, 2.002, 4, .pass, lane: .pass)]
    #expect(RunTimeline(run: Self.run(), steps: latency, needs: ["c": ["a"], "b": ["a"]]).criticalPath == ["a", "c"])
    // As over Examples/Foyer on 2 slots: k's need d ends at 0.1 as s and h take both slots; s ends at 3.2, a lane of
    // no time (m) runs in its slot, then k: k waited for s's slot, not for m (which ended with a slot free).
    let foyer = [Self.step("d", 1, 0, 0.1, .pass, lane: .pass), Self.step("s", 1, 0.1, 3.1, .pass, lane: .pass), Self.step("h", 1, 0.1, 10.9, .pass, lane: .pass),
                 Self.step("m", 1, 3.2, 0, .pass, lane: .pass), Self.step("k", 1, 3.21, 10.7, .pass, lane: .pass)]
    #expect(RunTimeline(run: Self.run(), steps: foyer, needs: ["k": ["d"]]).criticalPath == ["s", "k"])
  }

  /// Issue 41, item 6: how many attempts ran over time, one point per change.
  @Test func concurrencyOverTime() {
    let timeline = RunTimeline(run: Self.run(), steps: Self.steps, needs: Self.needs)
    #expect(timeline.concurrency.map(\.time) == [0, 1, 3, 5, 6, 8])
    #expect(timeline.concurrency.map(\.running) == [2, 1, 1, 1, 1, 0])
    let page = TimingsPage.html(timeline)
    #expect(page.contains("<g id=\"concurrency\" data-peak=\"2\">"))
  }

  /// A failed run with a lane of 4 ms among lanes of seconds (the 4.81 s run of issue 41).
  static func failedRun() -> RunTimeline {
    let steps = [Self.step("swift", 1, 0, 4.81, .pass, lane: .pass), Self.step("kotlin", 1, 0.5, 0.004, .fail, lane: .fail),
                 Self.step("tokens", 1, 0, 0.4, .pass, lane: .pass), Self.step("docs", 0, 0, 0, nil, lane: .cached),
                 Self.step("ui", 0, 0, 0, nil, lane: .skipped)]
    return RunTimeline(run: Self.run(started: 1000, ended: 1004.81), steps: steps, needs: ["kotlin": ["tokens"], "ui": ["kotlin"]])
  }

  /// Issue 41, item 6: the heading names the failing lane; every bar is at least a few pixels wide and labelled (inside,
  /// or after it where the slot has room); the legend names the critical path's outline, cached and skipped.
  @Test func failedRunNamesItsLane() throws {
    let timeline = Self.failedRun()
    #expect(timeline.failingLanes.map(\.lane) == ["kotlin"])
    let page = TimingsPage.html(timeline)
    #expect(page.contains("<h1>duet verify timings: FAIL in 4.81s: kotlin failed</h1>"))
    let rect = try #require(page.firstMatch(of: try Regex(#"data-lane="kotlin"[^>]*><title>[^<]*</title><rect [^>]*width="([0-9.]+)""#)))
    #expect(try #require(Double(String(rect.output[1].substring!))) >= 4)
    #expect(page.contains(">kotlin</text>"))
    let legend = try #require(page.firstMatch(of: try Regex(#"<p class="legend"[^>]*>(.*?)</p>"#)))
    for word in ["critical path", "cached", "skipped", "fail"] { #expect(legend.output[1].substring!.contains(word), "\(word)") }
    #expect(page.contains("<p id=\"not-run\">Not run, so no bar: cached: docs; skipped: ui.</p>"))
  }

  /// Issue 41, item 6: the time axis is ticked at 1, 2 or 5 × 10^n seconds, not at tenths of the run's odd duration.
  @Test func roundTicks() throws {
    let page = TimingsPage.html(Self.failedRun())
    let labels = page.matches(of: try Regex(#"text-anchor="middle">([0-9.]+)s</text>"#)).compactMap { Double(String($0.output[1].substring!)) }
    #expect(labels == (0...10).map { Double($0) / 2 })
    for (span, step, count) in [(4.81, 0.5, 10), (5.01, 1.0, 6), (0.034, 0.005, 7), (63.0, 10.0, 7), (10.0, 1.0, 10), (0.0, 0.001, 1), (181.0, 20.0, 10)] {
      let ticks = PageStyle.ticks(span)
      #expect(abs(ticks.step - step) < 1e-12 && ticks.count == count, "\(span): \(ticks)")
    }
  }

  /// HTMLText escapes the five characters that are markup and replaces controls.
  @Test func htmlEscaping() {
    #expect(HTMLText.escaped(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    #expect(HTMLText.escaped("a\u{1B}[31mb\u{85}c\td") == "a\u{FFFD}[31mb\u{FFFD}c\td")
    #expect(HTMLText.escaped("snowman ☃ and 💥") == "snowman ☃ and 💥")
  }

  static let hostile = ["</title><script>alert(1)</script>", "\" onmouseover=\"alert(2)", "<img src=http://example.com/x>", "a'b&amp;c"]

  /// A lane name from a store is never markup on the page: no raw `<` or quote from it survives.
  @Test func hostileNamesAreText() {
    let steps = Self.hostile.enumerated().map { Self.step($0.element, 1, Double($0.offset), 1, .pass, lane: .pass) }
    let page = TimingsPage.html(RunTimeline(run: Self.run(), steps: steps, needs: [:]))
    for name in Self.hostile { #expect(page.contains(HTMLText.escaped(name).text)) }
    #expect(!page.contains("<script"))
    #expect(!page.contains("<img"))
    #expect(!page.contains("\" onmouseover"))
  }

  /// The page is one file: a style sheet inline, no script, no link, nothing fetched.
  @Test func pageStandsAlone() {
    let page = TimingsPage.html(RunTimeline(run: Self.run(), steps: Self.steps, needs: Self.needs))
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    for word in ["<script", "<link", "src=", "href=", "http:", "https:", "@import", "url("] { #expect(!page.contains(word), "\(word)") }
    #expect(page.contains("prefers-color-scheme: dark"))
    #expect(page.components(separatedBy: "<g class=\"bar ").count - 1 == 5)
    #expect(page.components(separatedBy: "<title>").count - 1 == 7)  // the page's, one per bar and the concurrency row's
    #expect(page.contains("<title id=\"gantt-title\">"))
  }

  /// The trace parses as JSON; every event has ph, ts, dur, pid and tid; one complete event per attempt, one track per slot, durations from the rows.
  @Test func traceEvents() throws {
    let text = TraceJSON.text(RunTimeline(run: Self.run(), steps: Self.steps, needs: Self.needs))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let events = try #require(object["traceEvents"] as? [[String: Any]])
    for event in events { for key in ["ph", "ts", "dur", "pid", "tid"] { #expect(event[key] != nil, "\(key) in \(event)") } }
    let complete = events.filter { $0["ph"] as? String == "X" }
    #expect(complete.count == 5)
    #expect(complete.map { $0["dur"] as? Int } == [3_000_000, 1_000_000, 2_000_000, 1_000_000, 2_000_000])
    #expect(Set(complete.compactMap { $0["tid"] as? Int }) == [1, 2])
    #expect(events.filter { $0["name"] as? String == "thread_name" }.count == 2)
    let ui = complete.last?["args"] as? [String: String]
    #expect(ui?["fingerprint"] == "fp-ui")
    #expect(ui?["lane outcome"] == "flaky")
  }

  /// A hostile lane name comes back out of the trace's JSON as the same string.
  @Test func traceKeepsNames() throws {
    let steps = Self.hostile.enumerated().map { Self.step($0.element, 1, Double($0.offset), 1, .pass, lane: .pass) }
    let text = TraceJSON.text(RunTimeline(run: Self.run(), steps: steps, needs: [:]))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let names = (object["traceEvents"] as? [[String: Any]] ?? []).filter { $0["ph"] as? String == "X" }.compactMap { $0["name"] as? String }
    #expect(names == Self.hostile)
  }

  /// Issue 52, item 11: slices of one track in the trace never overlap, in
  /// microseconds as well as in seconds: a start and a duration rounded apart
  /// made a lane end at 10351 µs and the next on its slot start at 10350.
  @Test func traceSlicesOfOneTrackNeverOverlap() throws {
    var steps: [StepRow] = []
    var start = 0.0
    // Starts and durations whose halves of a microsecond round up apart.
    for index in 0..<40 {
      let duration = 0.0051755 + Double(index) * 0.0000013
      steps.append(Self.step("l\(index)", 1, start, duration, .pass, lane: .pass))
      start += duration
    }
    let text = TraceJSON.text(RunTimeline(run: Self.run(), steps: steps, needs: [:]))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let slices = (object["traceEvents"] as? [[String: Any]] ?? []).filter { $0["ph"] as? String == "X" }
    let byTrack = Dictionary(grouping: slices) { $0["tid"] as? Int ?? 0 }
    for (_, track) in byTrack {
      let spans = track.compactMap { slice -> (Int, Int)? in
        guard let ts = slice["ts"] as? Int, let dur = slice["dur"] as? Int else { return nil }
        return (ts, ts + dur)
      }.sorted { $0.0 < $1.0 }
      for (earlier, later) in zip(spans, spans.dropFirst()) {
        #expect(earlier.1 <= later.0, "\(earlier) overlaps \(later)")
      }
    }
  }
}
