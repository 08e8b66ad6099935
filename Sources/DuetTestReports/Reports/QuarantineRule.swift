import DuetSupport

/// What the quarantine makes of one failed attempt of a lane: nothing (it
/// fails), its failed test cases all quarantined (it passes, the failures still
/// recorded), or the whole lane quarantined.
package enum QuarantineExcuse: Sendable, Equatable {
  /// Every failed case matched an entry that still counts: these, by full name.
  case tests([String])
  /// A lane-level entry that still counts, through this day.
  case lane(until: QuarantineDate)

  /// The note the run summary shows beside `pass`.
  package var note: String {
    switch self {
    case .tests(let names):
      let shown = names.prefix(3).map { "\($0)" as TerminalLine }.joined(separator: ", ")
      return ("\(names.count) quarantined failure\(names.count == 1 ? "" : "s"): \(shown)" + (names.count > 3 ? ", …" : "") as TerminalLine).text
    case .lane(let until): return "quarantined until \(until)"
    }
  }
}

/// The quarantine as one run applies it: the file's entries and the day the run
/// is on. Pure: the run loop asks it about each failed attempt. The test
/// entries in date are compiled once per lane (`QuarantineMatcher`), again
/// only when `entries` or `today` change.
package struct QuarantineRule: Sendable, Equatable {
  var entries: [QuarantineEntry] { didSet { compile() } }
  var today: QuarantineDate { didSet { compile() } }
  /// The test entries in date of each lane, compiled.
  private var matchers: [String: QuarantineMatcher] = [:]

  package init(entries: [QuarantineEntry], today: QuarantineDate) {
    self.entries = entries
    self.today = today
    compile()
  }

  private mutating func compile() {
    let tests = entries.filter { !$0.isLaneLevel && $0.isActive(on: today) }
    matchers = Dictionary(grouping: tests, by: \.lane).mapValues(QuarantineMatcher.init)
  }

  package static func == (a: QuarantineRule, b: QuarantineRule) -> Bool { a.entries == b.entries && a.today == b.today }

  /// The entries past their `until` day: they count for nothing, and the run warns once about each.
  package var expired: [QuarantineEntry] { entries.filter { !$0.isActive(on: today) } }

  /// One line per expired entry, for the run to print as a warning.
  package var warnings: [String] {
    expired.map { "quarantine of \($0.label) expired on \($0.until); its failures fail the run again (\(QuarantineFile.defaultPath))" }
  }

  /// The entries of `lane` that still count today: those an excused attempt keeps, so a report can name each one.
  package func active(lane: String) -> [QuarantineEntry] {
    entries.filter { $0.lane == lane && $0.isActive(on: today) }
  }

  /// Whether a failed attempt of `lane` whose report held `cases` is excused. A
  /// failure with no failed case (a compile error, a crash before the report)
  /// is never excused by test entries.
  package func excuse(lane: String, cases: [TestCaseResult]) -> QuarantineExcuse? {
    let wholeLane = entries.filter { $0.lane == lane && $0.isLaneLevel && $0.isActive(on: today) }
    if let whole = wholeLane.max(by: { $0.until < $1.until }) { return .lane(until: whole.until) }
    let failed = cases.filter(\.outcome.failed).map(\.fullName)
    guard !failed.isEmpty, let matcher = matchers[lane], failed.allSatisfy(matcher.matches) else { return nil }
    return .tests(failed)
  }
}
