import Foundation
import DuetSupport

/// A calendar day, `YYYY-MM-DD`, as a quarantine's `until:` is written. Only
/// real dates are made (no 2026-02-30); days compare in calendar order.
public struct QuarantineDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// Nil unless `text` is exactly `YYYY-MM-DD` and names a day of the Gregorian calendar.
  public init?(_ text: String) {
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
  public init(_ date: Date) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    self.year = parts.year ?? 1970
    self.month = parts.month ?? 1
    self.day = parts.day ?? 1
  }

  /// The day `count` days after this one.
  public func adding(days count: Int) -> QuarantineDate {
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

  public static func < (a: QuarantineDate, b: QuarantineDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }

  public var description: String {
    let y = String(year), m = String(month), d = String(day)
    return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + (m.count < 2 ? "0" : "") + m + "-" + (d.count < 2 ? "0" : "") + d
  }
}

/// One entry of `lanes/quarantine.yaml`: a test (`classname.name`, globs
/// allowed) of one lane, or the whole lane when `test` is nil; why, and until when.
public struct QuarantineEntry: Sendable, Equatable {
  public var test: String?
  public var lane: String
  public var reason: String
  /// The last day the entry counts; after it, the failures block again.
  public var until: QuarantineDate
  public var location: SourceLocation?

  public init(test: String?, lane: String, reason: String, until: QuarantineDate, location: SourceLocation? = nil) {
    self.test = test
    self.lane = lane
    self.reason = reason
    self.until = until
    self.location = location
  }

  /// Whether the entry is for the whole lane.
  public var isLaneLevel: Bool { test == nil }

  /// Whether it still counts on `today` (its `until` day included).
  public func isActive(on today: QuarantineDate) -> Bool { today <= until }

  /// Whether it names the test case `fullName` (`classname.name`); `*` and `?` are globs.
  public func matches(test fullName: String) -> Bool {
    guard let test else { return true }
    return test == fullName || Glob.segmentMatches(test, fullName, hidden: .ordinary)
  }

  /// How a person names it: `Suite.test in lane 'unit'`, or `lane 'unit'`.
  public var label: String {
    test.map { "\(ControlText.shown($0)) in lane '\(ControlText.shown(lane))'" } ?? "lane '\(ControlText.shown(lane))'"
  }
}

/// The problems found in `lanes/quarantine.yaml`, each with its `file:line:column`.
public struct QuarantineError: DiagnosticError {
  public var diagnostics: [Diagnostic]
  public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
