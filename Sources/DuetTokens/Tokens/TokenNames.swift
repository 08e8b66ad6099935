import DuetModel
import DuetSupport

/// The rules a token name must meet to become an enum case in both languages
/// without backticks: lowerCamelCase, and not a word either compiler reserves.
enum TokenNames {
  /// Every Swift keyword that needs backticks to be used as an identifier (the
  /// Swift reference's keywords used in declarations, statements, expressions
  /// and types, plus the `_` wildcard).
  static let swiftReserved: Set<String> = [
    // declarations
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
    "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
    "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
    // statements
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
    "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
    // expressions and types
    "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    // patterns
    "_",
  ]

  /// Kotlin's hard keywords, which can never name a declaration without backticks.
  static let kotlinHardKeywords: Set<String> = [
    "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface",
    "is", "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias",
    "typeof", "val", "var", "when", "while",
  ]

  /// Why `name` cannot be a token name, or nil when it can.
  static func problem(with name: String) -> String? {
    if !isLowerCamelCase(name) {
      return "must be lowerCamelCase (a lower-case letter, then letters and digits, e.g. 'cardSurface')"
    }
    // A lowerCamelCase name can only be a reserved word when it is lower-case
    // letters alone (`TokenNamesTests` checks the lists): most names, with a
    // capital or a digit, are not hashed twice more.
    guard name.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return nil }
    if swiftReserved.contains(name) {
      return "'\(name)' is a reserved word in Swift; choose another name (e.g. '\(name)Color')"
    }
    if kotlinHardKeywords.contains(name) {
      return "'\(name)' is a hard keyword in Kotlin; choose another name (e.g. '\(name)Color')"
    }
    return nil
  }

  static func isLowerCamelCase(_ name: String) -> Bool {
    let bytes = name.utf8
    guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
    return bytes.allSatisfy { isASCIIAlphanumeric($0) }
  }

  /// A plain identifier (`MainTheme`, `MainPalette`): a letter, then letters, digits or `_`.
  static func isIdentifier(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, isASCIILetter(first) || first == UInt8(ascii: "_") else { return false }
    return bytes.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") }
  }

  /// A dotted name (`dev.modaal.foyer.theming`): identifiers joined by dots, none a Kotlin hard keyword.
  static func isQualifiedName(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    return !parts.isEmpty && parts.allSatisfy { isIdentifier($0) && !kotlinHardKeywords.contains($0) }
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}

/// The `UIFont.TextStyle` cases a type token may scale against on iOS.
enum TextStyles {
  static let all = [
    "largeTitle", "title1", "title2", "title3", "headline", "subheadline", "body", "callout", "footnote",
    "caption1", "caption2",
  ]
}
