import Foundation

/// A history time as the JSON reports print it: ISO 8601 in UTC, whole seconds.
package enum ISOTime {
  package static func text(_ seconds: Double) -> String {
    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
  }
}
