import Foundation
import DuetSupport

/// A calendar day, `YYYY-MM-DD`, as a quarantine's `until:` is written. Only
/// real dates are made (no 2026-02-30); days compare in calendar order.
package struct QuarantineDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  let year: Int
  let month: Int
  let day: Int

  /// Nil unless `text` is exactly `YYYY-MM-DD` and names a day of the Gregorian calendar.
  package init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
          parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
          let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
    guard year >= 1, (1...12).contains(month), (1...QuarantineDate.days(in: month, of: year)).contains(day) else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The day `date` falls on in UTC.
  package init(_ date: Date) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    self.year = parts.year ?? 1970
    self.month = parts.month ?? 1
    self.day = parts.day ?? 1
  }

  /// The first second of the day in UTC, in seconds since 1970: where a count of runs "since" it starts.
  var start: Double {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return (calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970
  }

  /// The day `count` days after this one.
  package func adding(days count: Int) -> QuarantineDate {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let start = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
    return QuarantineDate(calendar.date(byAdding: .day, value: count, to: start) ?? start)
  }

  static func days(in month: Int, of year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  package static func < (a: QuarantineDate, b: QuarantineDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }

  package var description: String {
    let y = String(year), m = String(month), d = String(day)
    return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + (m.count < 2 ? "0" : "") + m + "-" + (d.count < 2 ? "0" : "") + d
  }
}

/// One entry of `lanes/quarantine.yaml`: a test (`classname.name`, globs
/// allowed, or a name taken literally when `exact`) of one lane, or the whole
/// lane when `test` is nil; why, and until when.
package struct QuarantineEntry: Sendable, Equatable {
  package var test: String?
  /// `test` names one test literally, `*` and `?` included (`exact: true`).
  /// Only kept for a name holding `*` or `?`: on any other name it means
  /// nothing, so two spellings of one entry never differ.
  package var exact: Bool
  package var lane: String
  package var reason: String
  /// The last day the entry counts; after it, the failures block again.
  package var until: QuarantineDate
  /// When `quarantine add` wrote it: `suggest` counts a test's runs only from
  /// then, so passes from before the quarantine cannot release it. Nil in
  /// files written before it was kept.
  package var added: QuarantineMoment?
  var location: SourceLocation?

  package init(test: String?, exact: Bool = false, lane: String, reason: String, until: QuarantineDate, added: QuarantineMoment? = nil,
               location: SourceLocation? = nil) {
    self.test = test
    self.exact = exact && test.map(QuarantineEntry.holdsWildcard) == true
    self.lane = lane
    self.reason = reason
    self.until = until
    self.added = added
    self.location = location
  }

  /// Whether `text` holds a glob character, `*` or `?`.
  package static func holdsWildcard(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 == "*" || $0 == "?" }
  }

  /// Whether the entry is for the whole lane.
  package var isLaneLevel: Bool { test == nil }

  /// Whether `test` is a glob: it holds `*` or `?` and is not `exact`.
  var isGlob: Bool { !exact && test.map(QuarantineEntry.holdsWildcard) == true }

  /// Whether the test pattern names no test but the shape of every name, so
  /// it matches every test of its lane that has a class (`*`, `*.*`, `*?`):
  /// a glob made only of `*`, `?` and `.`, with at least one `*`.
  package var matchesEveryTest: Bool {
    guard isGlob, let test else { return false }
    return test.unicodeScalars.contains("*") && test.unicodeScalars.allSatisfy { "*?.".unicodeScalars.contains($0) }
  }

  /// Whether it still counts on `today` (its `until` day included).
  package func isActive(on today: QuarantineDate) -> Bool { today <= until }

  /// Whether it names the test case `fullName` (`classname.name`); `*` and `?`
  /// are globs unless the entry is `exact`.
  package func matches(test fullName: String) -> Bool {
    guard let test else { return true }
    return test == fullName || (!exact && Glob.segmentMatches(test, fullName, hidden: .ordinary))
  }

  /// Whether `other` is this entry's place in the file: the same lane, test
  /// and reading of the test (`add` replaces it, `remove` takes it away).
  package func isSameEntry(as other: QuarantineEntry) -> Bool {
    lane == other.lane && test == other.test && exact == other.exact
  }

  /// How a person names it: `Suite.test in lane 'unit'`, `'a*b' (exact) in
  /// lane 'unit'`, or `lane 'unit'`: a terminal line, the file's text escaped.
  package var label: TerminalLine {
    guard let test else { return "lane '\(lane)'" }
    return "\(test)\(exact ? " (exact name)" : "") in lane '\(lane)'"
  }
}

/// The problems found in `lanes/quarantine.yaml`, each with its `file:line:column`.
package struct QuarantineError: DiagnosticError {
  package var diagnostics: [Diagnostic]
  init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
