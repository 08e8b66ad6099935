import DuetSupport

/// `duet flaky` as text, beside its JSON (`FlakyJSON`): the ranking hands over
/// its rows and lines, so the command that prints them reads no entry's fields
/// one by one. `time` writes a moment as the command shows it.
extension FlakyRanking where Key == LaneKey {
  /// The columns; with runs from more than one place (`team`, pulled from the
  /// team), where each lane failed too.
  package static func tableHeader(team: Bool) -> [TerminalLine] {
    ["lane", "runs", "failures", "flaky fingerprints", "flips", "retries passed", "last seen"] + (team ? ["failed on"] : [])
  }

  /// A lane a row, under `tableHeader(team:)`.
  package static func tableRows(_ entries: [Entry], team: Bool, time: (Double) -> String) -> [[TerminalLine]] {
    entries.map {
      ["\($0.lane)", "\($0.runs)", "\($0.failures)", "\($0.flakyFingerprints)", "\($0.flips)", "\($0.retriesPassed)", "\(time($0.lastSeen))"]
        + (team ? ["\($0.failedOn.joined(separator: ", "))"] : [])
    }
  }
}

extension FlakyRanking.Entry where Key == TestKey {
  /// `duet flaky --tests`: the test in words on one line (a test's full name is
  /// too long for a table column), its newest failure's first line under it.
  /// Names and messages come from report files: a terminal line escapes them
  /// as they go in, on one line, nothing a terminal acts on.
  package func lines(time: (Double) -> String) -> [TerminalLine] {
    let failedOn = self.failedOn.isEmpty ? "" : "; failed on \(self.failedOn.joined(separator: ", "))"
    var lines: [TerminalLine] = ["  \(key.label) (lane \(lane)): \(runs) run(s), \(failures) failure(s), \(flakyFingerprints) flaky fingerprint(s), "
      + "\(flips) flip(s), \(retriesPassed) retry(ies) passed; last seen \(time(lastSeen))\(failedOn)"]
    if let lastFailure { lines.append("    last failed: \(lastFailure)") }
    return lines
  }
}
