import Foundation

/// Lane names made from folder and project names.
enum LaneNames {
  /// Letters, digits, `.`, `_` and `-` kept; anything else becomes `-`.
  static func sanitized(_ text: String) -> String {
    let mapped = String(text.unicodeScalars.map { scalar -> Character in
      scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "-"
    })
    return mapped.isEmpty ? "module" : mapped
  }

  /// The longest name `shortened` makes: far under `Lane.maxNameLength`, so a
  /// `-2` from `UniqueLaneNames` still fits, and short enough to read in a table.
  static let maxProposedLength = 60

  /// `sanitized`, with runs of `-` made one and cut to `maxProposedLength`
  /// without a trailing `-`, `.` or `_`: a lane name the manifest loader accepts.
  static func shortened(_ text: String) -> String {
    var name = sanitized(text)
    while name.contains("--") { name = name.replacingOccurrences(of: "--", with: "-") }
    name = String(name.prefix(maxProposedLength))
    while let last = name.last, "-._".contains(last) { name.removeLast() }
    return name.isEmpty ? "module" : name
  }
}
