import DuetModel
import DuetOutput
import DuetSupport
import DuetRun
import DuetHistory

/// The text of a run: the line per finished lane, the failed lanes' log tails,
/// the summary table and the verdict. Pure, so tests read exactly what users see.
package enum RunText {
  /// `[3/7] ✓ design-tokens 0.12s`, `[4/7] ✗ kotlin 12.3s (exit 1)`.
  package static func progressLine(_ record: LaneVerdict, finished: Int, total: Int) -> TerminalLine {
    let width = String(total).count
    let pad = Array(repeating: " " as TerminalLine, count: max(0, width - String(finished).count)).joined()
    return "[\(pad)\(finished)/\(total)] \(symbol(record.outcome)) \(record.name) \(detail(record))"
  }

  static func symbol(_ outcome: LaneOutcome) -> String {
    switch outcome {
    case .pass, .flaky, .cached: return "✓"
    case .fail, .timeout, .interrupted, .error: return "✗"
    case .skipped, .cancelled, .unaffected: return "-"
    }
  }

  /// `0.12s`, `12.3s (exit 1)`, `skipped (needs kotlin)`, `1.20s (flaky: passed on attempt 2)`.
  static func detail(_ record: LaneVerdict) -> String {
    let time = DurationText.format(record.duration)
    switch record.outcome {
    case .pass: return time
    case .cached:
      return record.restoredFiles == 0 ? "cached" : "cached (restored \(record.restoredFiles) file\(record.restoredFiles == 1 ? "" : "s"))"
    case .flaky: return "\(time) (flaky: passed on attempt \(record.attempts.count))"
    case .fail:
      if record.attempts.isEmpty { return "failed (\(record.reason ?? "did not start"))" }
      return "\(time) (\(endText(record.last)))"
    case .timeout: return "\(time) (timeout)"
    case .skipped: return "skipped (\(record.reason ?? "not run"))"
    case .cancelled: return "cancelled (\(record.reason ?? "not started"))"
    case .unaffected: return "unaffected"
    case .interrupted: return "\(time) (interrupted)"
    case .error: return "error (duet could not start it: \(record.reason ?? "no resources"))"
    }
  }

  /// How a failed attempt ended: `exit 1`, `killed by signal 9`.
  package static func endText(_ attempt: LaneAttempt?) -> String {
    guard let attempt else { return "did not start" }
    if let note = attempt.note { return note }
    if let code = attempt.exitCode { return "exit \(code)" }
    if let signal = attempt.signal { return "killed by signal \(signal)" }
    return attempt.outcome.rawValue
  }

  /// A failed or timed-out lane's block: a heading, then error-looking lines
  /// and the tail, for the step summary and the annotations to escape.
  static func failureBlock(_ record: LaneVerdict) -> [String] {
    [failureHeading(record).text] + (record.last?.tail.reportLines ?? []).map { "   " + $0 }
  }

  /// The same block as terminal lines: the heading escaped, the tail as the
  /// lane wrote it but for controls other than its colours and tabs.
  package static func failureLines(_ record: LaneVerdict) -> [TerminalLine] {
    [failureHeading(record)] + (record.last?.tail.reportLines ?? []).map { "   \($0, in: .laneOutput)" }
  }

  /// `── kotlin: exit 1 · log: …`, its reason and note escaped as it is made.
  private static func failureHeading(_ record: LaneVerdict) -> TerminalLine {
    guard let last = record.last else {
      return "── \(record.name): \(record.outcome.rawValue) (\(record.reason ?? "did not start"))"
    }
    var heading: TerminalLine = "── \(record.name): \(record.outcome == .timeout ? "timed out" : endText(last))"
    if record.attempts.count > 1 { heading += ", attempt \(record.attempts.count) of \(record.attempts.count)" }
    // A lane that printed but left no file lost its log (a folder that could
    // not be made, a full disk): say so rather than "no output".
    heading += " · log: \(last.logPath ?? (last.tail.byteCount > 0 ? "(not written: the log file could not be made)" : "(no output)"))"
    return heading
  }

  /// One row per lane: name, outcome, time, attempts, note.
  package static func summary(_ verdict: RunVerdict, maxWidth: Int = 100) -> [TerminalLine] {
    let rows = summaryRows(verdict).map { $0.map { TerminalLine(escaping: $0) } }
    return TextTable(header: ["lane", "outcome", "time", "tries", "note"], rows: rows).lines(maxWidth: maxWidth)
  }

  /// The summary's cells, one row per lane (the step summary renders them as Markdown).
  static func summaryRows(_ verdict: RunVerdict) -> [[String]] {
    verdict.lanes.map { record -> [String] in
      let note: String
      switch record.outcome {
      case .skipped, .cancelled, .unaffected: note = record.reason ?? ""
      case .fail: note = record.attempts.isEmpty ? (record.reason ?? "") : endText(record.last)
      case .error: note = "duet could not start it: " + (record.reason ?? "")
      case .timeout: note = "timed out; the lane's process group was stopped"
      // A retry the quarantine let pass names the failures it excused.
      case .flaky: note = "failed, then passed on attempt \(record.attempts.count)" + (record.last?.excused == true ? " by " + (record.last?.note ?? "the quarantine") : "")
      case .pass: note = record.last?.note ?? ""
      default: note = ""
      }
      return [record.name, record.outcome.rawValue, record.attempts.isEmpty ? "-" : DurationText.format(record.duration), record.attempts.isEmpty ? "-" : String(record.attempts.count), note]
    }
  }

  /// The line above an unchanged PASS that names flaky lanes.
  package static func flakyLine(_ verdict: RunVerdict) -> TerminalLine? {
    let flaky = verdict.flaky
    guard !flaky.isEmpty else { return nil }
    return "flaky: " + flaky.map { "\($0.name) (passed on attempt \($0.attempts.count))" as TerminalLine }.joined(separator: ", ")
  }
}
