import Foundation
import Testing
@testable import DuetRun
@testable import DuetTestReports
@testable import DuetSupport
@testable import DuetHistory

/// Issue 50, item 10: the TEST of each `quarantine add` line `suggest`
/// prints names exactly the test it saw.
struct QuarantineSuggestionsTests {
  /// A plain name as it is; one holding `*` or `?` with `--exact`, so its
  /// glob characters are taken literally; one holding a control (an escape, a
  /// line break, a bidirectional override) spelt by an octal `printf` with
  /// `--exact`, so the line holds no control; `%`, `\` and `'` kept through
  /// printf and the shell's quotes. Only a name ending in a line break, which
  /// `$(...)` would drop, gets the `?` pattern.
  @Test func theSuggestedTestIsExact() {
    #expect(QuarantineSuggestions.typedTest(for: "app.T.plain") == "app.T.plain")
    #expect(QuarantineSuggestions.typedTest(for: "app.T.sums[a*b]") == "--exact 'app.T.sums[a*b]'")
    #expect(QuarantineSuggestions.typedTest(for: "app.T.who?") == "--exact 'app.T.who?'")
    #expect(QuarantineSuggestions.typedTest(for: "app.T.a\nb\u{1B}[31mc\u{2028}d%e\\f'g")
            == #"--exact "$(printf 'app.T.a\012b\033[31mc\342\200\250d%%e\\f'\''g')""#)
    #expect(QuarantineSuggestions.typedTest(for: "app.T.ends\n") == "'app.T.ends?'")
  }

  /// A name starting with `-` comes after `--`, so it is not read as an option.
  @Test func aNameStartingWithADashComesAfterTheOptions() {
    #expect(QuarantineSuggestions.addLine(test: "app.T.x", lane: "unit") == "duet quarantine add app.T.x --lane unit --reason '...'")
    #expect(QuarantineSuggestions.addLine(test: "-x", lane: "unit") == "duet quarantine add --lane unit --reason '...' -- -x")
    #expect(QuarantineSuggestions.addLine(test: "-x*", lane: "my lane") == "duet quarantine add --exact --lane 'my lane' --reason '...' -- '-x*'")
  }

  /// What `/bin/sh` makes of the printf form is the name itself, byte for byte.
  @Test func theShellReadsThePrintfFormBackAsTheName() throws {
    let name = "app.T.a\nb\u{1B}[31mc\u{2028}d%e\\f'g*h\u{7F}"
    let typed = QuarantineSuggestions.typedTest(for: name)
    #expect(typed.hasPrefix("--exact "))
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "printf '%s' " + typed.dropFirst("--exact ".count)]
    let out = Pipe()
    shell.standardOutput = out
    try shell.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    shell.waitUntilExit()
    #expect(String(decoding: data, as: UTF8.self) == name)
  }
}

/// Issue 55, item 2: `quarantine suggest --below PCT` releases an entry only
/// when the 95% interval of its test's failure rate (from its passes in a row,
/// no failure) ends below PCT: 10 passes allow up to 28%, 80 passes under 5%.
struct QuarantineReleaseBelowTests {
  @Test func aReleaseWaitsForAnIntervalBelowTheThreshold() {
    let today = QuarantineDate("2026-12-06")!
    let entry = QuarantineEntry(test: "app.T.steady", lane: "unit", reason: "r", until: QuarantineDate("2027-01-01")!)
    let streak = { (passes: Int) in ["unit": ["app.T.steady": passes]] }
    #expect(QuarantineSuggestions.suggest(flaky: [], entries: [entry], streaks: streak(10), today: today).release.count == 1)
    #expect(QuarantineSuggestions.suggest(flaky: [], entries: [entry], streaks: streak(10), today: today, below: 0.05).release.isEmpty)
    #expect(QuarantineSuggestions.suggest(flaky: [], entries: [entry], streaks: streak(72), today: today, below: 0.05).release.isEmpty)
    #expect(QuarantineSuggestions.suggest(flaky: [], entries: [entry], streaks: streak(80), today: today, below: 0.05).release.count == 1)
    #expect(QuarantineSuggestions.suggest(flaky: [], entries: [entry], streaks: streak(10), today: today, below: 0.30).release.count == 1)
  }
}

/// Issue 54, item 1: `quarantine suggest` prints the lines and the JSON's
/// values the suggestions hand over; the command reads no field one by one.
struct QuarantineSuggestionsTextTests {
  @Test func theLinesTheTestsAndTheEntries() {
    let flaky = TestFlakyReport.Entry(lane: "unit", suite: "app.T", name: "flips", runs: 9, failures: 2, flakyFingerprints: 1, flips: 3,
                                      retriesPassed: 1, lastSeen: 0, recovered: false, lastFailure: nil)
    let entry = QuarantineEntry(test: "app.T.steady", lane: "unit", reason: "r", until: QuarantineDate("2027-01-01")!)
    let found = QuarantineSuggestions(quarantine: [flaky], release: [.init(entry: entry, passes: 12)])
    #expect(found.lines.map(\.text) == [
      "duet quarantine suggest: 1 flaky test(s) not quarantined; 1 quarantine(s) whose tests passed their last 10 runs or more in a row",
      "  quarantine app.T.flips (lane unit): 2 failure(s) in 9 run(s)",
      "    duet quarantine add app.T.flips --lane unit --reason '...'",
      "  release \(entry.label): 12 passing run(s) in a row (the entry has no 'added:' day: counted over the newest runs)",
    ])
    #expect(found.tests.map { [$0.lane, $0.test] } == [["unit", "app.T.flips"]])
    #expect(found.entries == [entry])
  }
}
