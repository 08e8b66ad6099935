import Foundation
import DuetSupport

/// A calendar day, `YYYY-MM-DD`, as a quarantine's `until:` is written. Only
/// real dates are made (no 2026-02-30); days compare in calendar order.
package struct QuarantineDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  package let year: Int
  package let month: Int
  package let day: Int

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
  package var start: Double {
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
/// allowed) of one lane, or the whole lane when `test` is nil; why, and until when.
package struct QuarantineEntry: Sendable, Equatable {
  package var test: String?
  package var lane: String
  package var reason: String
  /// The last day the entry counts; after it, the failures block again.
  package var until: QuarantineDate
  /// The day `quarantine add` wrote it: `suggest` counts a test's passes only
  /// from then, so passes from before the quarantine cannot release it. Nil in
  /// files written before it was kept.
  package var added: QuarantineDate?
  package var location: SourceLocation?

  package init(test: String?, lane: String, reason: String, until: QuarantineDate, added: QuarantineDate? = nil, location: SourceLocation? = nil) {
    self.test = test
    self.lane = lane
    self.reason = reason
    self.until = until
    self.added = added
    self.location = location
  }

  /// Whether the entry is for the whole lane.
  package var isLaneLevel: Bool { test == nil }

  /// Whether it still counts on `today` (its `until` day included).
  package func isActive(on today: QuarantineDate) -> Bool { today <= until }

  /// Whether it names the test case `fullName` (`classname.name`); `*` and `?` are globs.
  package func matches(test fullName: String) -> Bool {
    guard let test else { return true }
    return test == fullName || Glob.segmentMatches(test, fullName, hidden: .ordinary)
  }

  /// How a person names it: `Suite.test in lane 'unit'`, or `lane 'unit'`.
  package var label: String {
    test.map { "\(ControlText.shown($0)) in lane '\(ControlText.shown(lane))'" } ?? "lane '\(ControlText.shown(lane))'"
  }
}

/// The problems found in `lanes/quarantine.yaml`, each with its `file:line:column`.
package struct QuarantineError: DiagnosticError {
  package var diagnostics: [Diagnostic]
  package init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
