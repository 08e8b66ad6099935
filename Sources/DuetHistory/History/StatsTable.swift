import DuetSupport
import Foundation

/// `duet stats`' table as text, beside its JSON (`StatsJSON`): the ranking
/// hands over its rows, so the command that prints them reads no entry's
/// fields one by one.
extension StatsRanking where Key == LaneKey {
  /// A lane a row. "passed" counts runs the lane passed, retries allowed;
  /// "first try" the runs its first attempt passed; "excused" the runs that
  /// passed only by the quarantine: neither passed nor failed.
  package static var tableHeader: [TerminalLine] { ["lane", "runs", "attempts", "passed", "excused", "first try", "p50", "p95", "max", "run p50", "trend"] }

  package var tableRows: [[TerminalLine]] {
    entries.map { entry -> [TerminalLine] in
      ["\(entry.lane)", "\(entry.runs)", "\(entry.attempts)", "\(String(format: "%.0f%%", entry.passRate * 100))", "\(entry.excused)",
       "\(String(format: "%.0f%%", entry.firstTryRate * 100))", "\(DurationText.format(entry.p50))", "\(DurationText.format(entry.p95))",
       "\(DurationText.format(entry.max))", "\(DurationText.format(entry.runP50))",
       entry.slower ? "\(String(format: "slower (%.1fx)", entry.slowdown ?? 0))" : ""]
    }
  }
}

extension StatsRanking where Key == TestKey {
  /// `duet stats --tests`: a row per test; the test's full name comes last, so
  /// a narrow terminal cuts it rather than the figures.
  package static var tableHeader: [TerminalLine] { ["lane", "runs", "pass rate", "p50", "p95", "max", "test"] }

  package var tableRows: [[TerminalLine]] {
    entries.map { entry -> [TerminalLine] in
      ["\(entry.lane)", "\(entry.runs)", "\(String(format: "%.0f%%", entry.passRate * 100))", "\(DurationText.format(entry.p50))",
       "\(DurationText.format(entry.p95))", "\(DurationText.format(entry.max))", "\(entry.key.label)"]
    }
  }
}
