import DuetSupport
import DuetTestReports

/// `duet quarantine suggest` as text and as the JSON's values: the suggestions
/// hand them over, so the command reads no test's or entry's fields one by one.
extension QuarantineSuggestions {
  /// In words: one line per test, the command that quarantines it under it;
  /// then one per entry to release.
  package var lines: [TerminalLine] {
    var lines: [TerminalLine] = []
    let needed = QuarantineSuggestions.passesToRelease
    lines.append("duet quarantine suggest: \(quarantine.count) flaky test(s) not quarantined; \(release.count) quarantine(s) "
                 + "whose tests passed their last \(needed) runs or more in a row")
    for test in quarantine {
      lines.append("  quarantine \(test.key.fullName) (lane \(test.lane)): \(test.failures) failure(s) in \(test.runs) run(s)")
      lines.append("    \(QuarantineSuggestions.addLine(test: test.key.fullName, lane: test.lane))")
    }
    for release in release {
      let counted = release.entry.added.map { "since it was added \($0.isDay ? "on" : "at") \($0)" }
        ?? "(the entry has no 'added:' day: counted over the newest runs)"
      lines.append("  release \(release.entry.label): \(release.passes) passing run(s) in a row \(counted)")
    }
    return lines
  }

  /// The tests to quarantine, each as its lane and full name.
  package var tests: [(lane: String, test: String)] { quarantine.map { ($0.lane, $0.key.fullName) } }

  /// The entries to release.
  package var entries: [QuarantineEntry] { release.map(\.entry) }
}
