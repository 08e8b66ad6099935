import Foundation

/// Reading Gradle scripts (Kotlin or Groovy) and `Package.swift` as text,
/// without running Gradle or SwiftPM: comments dropped while string literals
/// are kept whole (`"https://…"` holds a `//`), literals listed, and calls
/// cut at their balanced `)`, across lines.
enum BuildScriptText {
  /// `text` with `//` line comments and `/* */` block comments removed; newlines
  /// are kept so that what is left stays on its lines. Strings in `"…"`, `'…'`
  /// and `"""…"""` are copied as they are, escapes included.
  static func withoutComments(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    var out = String.UnicodeScalarView()
    var index = 0
    func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "/" && at(1) == "/" {
        while index < scalars.count && scalars[index] != "\n" { index += 1 }
      } else if scalar == "/" && at(1) == "*" {
        index += 2
        while index < scalars.count && !(scalars[index] == "*" && at(1) == "/") {
          if scalars[index] == "\n" { out.append("\n") }
          index += 1
        }
        index = min(index + 2, scalars.count)
        out.append(" ")
      } else if scalar == "\"" && at(1) == "\"" && at(2) == "\"" {
        out.append(contentsOf: scalars[index..<index + 3])
        index += 3
        while index < scalars.count && !(scalars[index] == "\"" && at(1) == "\"" && at(2) == "\"") {
          out.append(scalars[index])
          index += 1
        }
        let end = min(index + 3, scalars.count)
        out.append(contentsOf: scalars[index..<end])
        index = end
      } else if scalar == "\"" || scalar == "'" {
        out.append(scalar)
        index += 1
        while index < scalars.count && scalars[index] != scalar && scalars[index] != "\n" {
          if scalars[index] == "\\" && index + 1 < scalars.count {
            out.append(scalars[index])
            index += 1
          }
          out.append(scalars[index])
          index += 1
        }
        if index < scalars.count && scalars[index] == scalar {
          out.append(scalar)
          index += 1
        }
      } else {
        out.append(scalar)
        index += 1
      }
    }
    return String(out)
  }

  /// The contents of every `"…"` or `'…'` literal in `text`, in order.
  static func quotedStrings(in text: String) -> [String] {
    var result: [String] = []
    var current: String?
    var quote: Character = "\""
    for character in text {
      if var open = current {
        if character == quote {
          result.append(open)
          current = nil
        } else {
          open.append(character)
          current = open
        }
      } else if character == "\"" || character == "'" {
        quote = character
        current = ""
      }
    }
    return result
  }

  /// The argument text of every call that starts with `opening` (which ends in
  /// `(`), up to its balanced `)`, however many lines it spans.
  static func calls(_ opening: String, in code: String) -> [String] {
    var result: [String] = []
    var rest = Substring(code)
    while let start = rest.range(of: opening) {
      let (arguments, after) = balancedArguments(rest[start.upperBound...])
      result.append(String(arguments))
      rest = after
    }
    return result
  }

  /// `text` that follows an opening `(`, cut at the `)` that closes it: the
  /// arguments, and what comes after that `)` (everything, when it never closes).
  static func balancedArguments(_ text: Substring) -> (arguments: Substring, rest: Substring) {
    var depth = 1
    var index = text.startIndex
    while index < text.endIndex {
      if text[index] == "(" { depth += 1 } else if text[index] == ")" { depth -= 1 }
      if depth == 0 { return (text[..<index], text[text.index(after: index)...]) }
      index = text.index(after: index)
    }
    return (text, text[text.endIndex...])
  }

  /// Where `word` occurs in `code` as a whole identifier, outside string
  /// literals: not inside a longer one (`include` but not `includeBuild`), nor
  /// after a `.`, nor in `"include(':x')"`. `code` has its comments removed.
  static func ranges(ofWord word: String, in code: String) -> [Range<String.Index>] {
    var found: [Range<String.Index>] = []
    var quote: Character?
    var previous: Character?
    var index = code.startIndex
    while index < code.endIndex {
      let character = code[index]
      if let open = quote {
        if character == "\\" {
          index = code.index(after: index)
          if index < code.endIndex { index = code.index(after: index) }
          continue
        }
        if character == open || character == "\n" { quote = nil }
      } else if character == "\"" || character == "'" {
        quote = character
      } else if character == word.first, !isIdentifier(previous), previous != ".", code[index...].hasPrefix(word) {
        let end = code.index(index, offsetBy: word.count)
        if end == code.endIndex || !isIdentifier(code[end]) {
          found.append(index..<end)
          previous = code[code.index(before: end)]
          index = end
          continue
        }
      }
      previous = character
      index = code.index(after: index)
    }
    return found
  }

  static func isIdentifier(_ character: Character?) -> Bool {
    guard let character else { return false }
    return character.isLetter || character.isNumber || character == "_"
  }
}
