import DuetModel
import DuetSupport

/// A WCAG 2.2 conformance level for text contrast, with the ratio it asks of
/// normal text and of large text (success criteria 1.4.3 and 1.4.6).
enum ContrastLevel: String, Sendable, CaseIterable, Equatable {
  case aa = "AA"
  case aaa = "AAA"

  /// The least ratio a pair must reach, compared unrounded.
  func required(largeText: Bool) -> Double {
    switch (self, largeText) {
    case (.aa, false): return 4.5
    case (.aa, true): return 3
    case (.aaa, false): return 7
    case (.aaa, true): return 4.5
    }
  }

  /// `AA`, or `AA, large text`, as a report names the threshold.
  func label(largeText: Bool) -> String {
    largeText ? "\(rawValue), large text" : rawValue
  }
}

/// WCAG's large text: at least 18 pt, or at least 14 pt at a bold weight (700 or more).
enum LargeText {
  static let minimumSize = 18.0
  static let minimumBoldSize = 14.0
  static let boldWeight = 700

  static func isLarge(size: Double, weight: Int) -> Bool {
    size >= minimumSize || (size >= minimumBoldSize && weight >= boldWeight)
  }

  static func isLarge(_ font: FontToken) -> Bool { isLarge(size: font.size, weight: font.weight) }
}
