import DuetOutput
import Foundation
import DuetHistory

/// `duet trace`: a run as Chrome Trace Event JSON, which Perfetto and
/// `chrome://tracing` open: one track (thread) per job slot, one complete
/// event (`"ph": "X"`) per attempt with its lane, outcome and fingerprint, and
/// metadata events naming the process and the tracks. Times are microseconds
/// from the run's start. Every event has `ph`, `ts`, `dur`, `pid` and `tid`.
package enum TraceJSON {
  struct Event: Encodable {
    var name: String
    var cat: String
    var ph: String
    var ts: Int64
    var dur: Int64
    var pid: Int
    var tid: Int
    var args: [String: String]
  }

  struct File: Encodable {
    var traceEvents: [Event]
    var displayTimeUnit = "ms"
    var otherData: [String: String]
  }

  package static func text(_ timeline: RunTimeline) -> String {
    let file = File(traceEvents: events(timeline), otherData: ["run": timeline.runID, "verdict": timeline.verdict,
                                                               "started": ISOTime.text(timeline.started)])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // JSONEncoder is the JSON escaper: every string from the store comes back as itself.
    let data = (try? encoder.encode(file)) ?? Data("{}".utf8)
    return ReportJSON.escapingSeparators(String(decoding: data, as: UTF8.self))
  }

  /// The events: the metadata naming the process and each slot's track, then one
  /// complete event per bar, in the timeline's order (`duet trace --html` draws these).
  static func events(_ timeline: RunTimeline) -> [Event] {
    var events = [Event(name: "process_name", cat: "__metadata", ph: "M", ts: 0, dur: 0, pid: 1, tid: 0,
                        args: ["name": "duet verify \(timeline.runID)"])]
    for slot in 0..<timeline.slots {
      events.append(Event(name: "thread_name", cat: "__metadata", ph: "M", ts: 0, dur: 0, pid: 1, tid: slot + 1, args: ["name": "slot \(slot + 1)"]))
    }
    let outcomes = Dictionary(timeline.lanes.map { ($0.lane, $0.outcome) }, uniquingKeysWith: { a, _ in a })
    for bar in timeline.bars {
      var args = ["lane": bar.lane, "attempt": "\(bar.attempt)", "outcome": bar.outcome, "lane outcome": outcomes[bar.lane] ?? ""]
      if let fingerprint = timeline.fingerprints[bar.lane] { args["fingerprint"] = fingerprint }
      if bar.onCriticalPath { args["critical path"] = "yes" }
      // The end is rounded once, from the same clock as the start, and the
      // duration is what lies between: a start and a duration rounded apart
      // could end a slice a microsecond after the next on its track starts.
      let start = micros(bar.start)
      events.append(Event(name: bar.lane, cat: bar.outcome, ph: "X", ts: start, dur: max(0, micros(bar.start + bar.duration) - start),
                          pid: 1, tid: bar.slot + 1, args: args))
    }
    return events
  }

  /// Seconds as whole microseconds.
  static func micros(_ seconds: Double) -> Int64 { Int64((StoredNumber.time(seconds) * 1_000_000).rounded()) }
}
