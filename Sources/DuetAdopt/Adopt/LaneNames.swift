import Foundation

/// Lane names made from folder and project names.
package enum LaneNames {
  /// Letters, digits, `.`, `_` and `-` kept; anything else becomes `-`.
  package static func sanitized(_ text: String) -> String {
    let mapped = String(text.unicodeScalars.map { scalar -> Character in
      scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "-"
    })
    return mapped.isEmpty ? "module" : mapped
  }
}
