import DuetTestReports
import DuetSupport

/// `duet quarantine suggest`, pure: the tests the history proves flaky that no
/// quarantine entry in date covers (to quarantine), and the test entries whose
/// every matching test passed its last `passesToRelease` recorded runs in a row
/// (to release).
package struct QuarantineSuggestions: Sendable, Equatable {
  /// Runs in a row a quarantined test must pass before it is suggested for release.
  static let passesToRelease = 10

  /// `test` as a `quarantine add` pattern a user can type on one line: each
  /// character the terminal would show escaped (a line break, an escape, a
  /// bidirectional override) as the glob `?`. It matches `test`, but may
  /// match other names too: `typedTest` uses it only where nothing exact can be typed.
  static func typedPattern(for test: String) -> String {
    String(String.UnicodeScalarView(test.unicodeScalars.map { ControlText.needsEscape($0) ? "?" : $0 }))
  }

  /// The TEST argument of the `quarantine add` line suggest prints, as shell
  /// text whose entry matches exactly the name it saw, `test`: the name
  /// itself; `--exact NAME` when it holds `*` or `?`; with a character a
  /// terminal would act on (a line break, an escape), `--exact "$(printf
  /// '...')"` spelling it in octal, so the line stays printable. The shell's
  /// `$(...)` drops trailing line breaks: a name ending in one gets
  /// `typedPattern`, the one place the suggestion is a pattern wider than the name.
  static func typedTest(for test: String) -> String {
    let controls = test.unicodeScalars.contains(where: ControlText.needsEscape)
    if !controls { return (QuarantineEntry.holdsWildcard(test) ? "--exact " : "") + ShellWord.quoted(test).text }
    guard let last = test.unicodeScalars.last, last != "\n" else { return ShellWord.quoted(typedPattern(for: test)).text }
    var format = ""
    for scalar in test.unicodeScalars {
      switch scalar {
      case "\\": format += "\\\\"
      case "%": format += "%%"
      case "'": format += "'\\''"
      case _ where ControlText.needsEscape(scalar):
        for byte in String(scalar).utf8 {
          let octal = String(byte, radix: 8)
          format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
      default: format.unicodeScalars.append(scalar)
      }
    }
    return "--exact \"$(printf '\(format)')\""
  }

  /// The whole `duet quarantine add` line for `test` of `lane`: TEST after
  /// `--` when the name starts with `-`, which would otherwise read as an option.
  /// A terminal line: the quoted lane escaped as it goes in (`typedTest`
  /// writes any control as printf's octal already).
  static func addLine(test: String, lane: String) -> TerminalLine {
    let typed = typedTest(for: test), options: TerminalLine = "--lane \(ShellWord.quoted(lane).text) --reason '...'"
    guard test.hasPrefix("-") else { return "duet quarantine add \(typed) \(options)" }
    let exact = typed.hasPrefix("--exact ")
    return "duet quarantine add \(exact ? "--exact " : "")\(options) -- \(exact ? String(typed.dropFirst("--exact ".count)) : typed)"
  }

  struct Release: Sendable, Equatable {
    var entry: QuarantineEntry
    /// The shortest run of passes, newest first, among the tests it matches.
    var passes: Int
  }

  var quarantine: [TestFlakyReport.Entry]
  var release: [Release]

  /// `streaks[lane][suite.name]`: how many of the lane's newest runs in a row that
  /// recorded the test passed it on every attempt; `since[moment]`, the same over
  /// the runs that started at or after `moment` only. An entry with an `added`
  /// moment is counted from it, so passes from before the quarantine cannot
  /// release it; one without (an older file) over the newest runs, as before.
  /// With `below` (a fraction, `--below 5%`), a release also needs the 95%
  /// interval of the test's failure rate, from its passes in a row and no
  /// failure, to end below it (`FailureRate`): 10 passes still allow 28%.
  package static func suggest(flaky: [TestFlakyReport.Entry], entries: [QuarantineEntry], streaks: [String: [String: Int]],
                             since: [QuarantineMoment: [String: [String: Int]]] = [:], today: QuarantineDate,
                             below: Double? = nil) -> QuarantineSuggestions {
    let active = entries.filter { $0.isActive(on: today) }
    let toQuarantine = flaky.filter { test in !active.contains { $0.lane == test.lane && $0.matches(test: test.key.fullName) } }
    var release: [Release] = []
    for entry in active where !entry.isLaneLevel {
      let counted = entry.added.map { since[$0] ?? [:] } ?? streaks
      let matching = (counted[entry.lane] ?? [:]).filter { entry.matches(test: $0.key) }.map(\.value)
      guard let shortest = matching.min(), shortest >= passesToRelease else { continue }
      if let below, FailureRate(failed: 0, runs: shortest).high >= below { continue }
      release.append(Release(entry: entry, passes: shortest))
    }
    return QuarantineSuggestions(quarantine: toQuarantine, release: release)
  }
}

extension HistoryStore {
  /// For each lane and test (`suite.name`) of the last `last` runs: how many of
  /// its newest runs in a row passed it (no failed or errored attempt); a skip
  /// is no run.
  /// With `since`, only the runs that started on or after it count.
  package func testPassStreaks(last: Int, since: Double? = nil) throws(HistoryError) -> [String: [String: Int]] {
    try reading {
      guard try hasTable("test_cases") else { return [:] }
      let statement = try db.prepare("""
        SELECT lane, suite, name, MAX(outcome IN ('fail', 'error')) FROM test_cases
        WHERE run_id = ?1 AND outcome != 'skipped' GROUP BY lane, suite, name
        """)
      var streaks: [String: [String: Int]] = [:]
      var broken: Set<String> = []
      for run in try windowRuns(last: last, since: since).reversed() {
        try statement.bind([.text(run.id)])
        while try statement.step() {
          let row = statement.row
          guard row.count == 4, let lane = row[0].text, let suite = row[1].text, let name = row[2].text else { continue }
          let test = suite.isEmpty ? name : "\(suite).\(name)"
          let key = "\(lane)\u{0}\(test)"
          guard !broken.contains(key) else { continue }
          if (row[3].int ?? 1) != 0 { broken.insert(key) } else { streaks[lane, default: [:]][test, default: 0] += 1 }
          if streaks[lane]?[test] == nil { streaks[lane, default: [:]][test] = 0 }
        }
      }
      return streaks
    }
  }
}
