import Foundation

/// A time as every JSON report prints it (`verify --json`, `history --json`,
/// `flaky --json`): ISO 8601 in UTC with milliseconds and an explicit offset,
/// `2026-12-03T18:18:23.250+00:00`, so one parser reads them all.
package enum ISOTime {
  package static func text(_ seconds: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSxxxxx"
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }
}
