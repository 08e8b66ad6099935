/// A language duet writes text in (HTML, JUnit XML, YAML, a shell script,
/// Swift and Kotlin source, a terminal line), named by its one escaping
/// function. `Context` is where in the language a value goes, when that
/// changes its escaping (a YAML scalar or a comment; an XML attribute or
/// element text); a language with one context uses `Void`.
package protocol OutputLanguage: Sendable {
  associatedtype Context: Sendable
  /// Where a value interpolated without saying where goes.
  static var defaultContext: Context { get }
  /// `text`, from the tree, the store or a user, made into text of this
  /// language that reads back as the same string where it is put.
  static func escape(_ text: String, in context: Context) -> String
}

/// Text of an output language, and the only text its writers take (issue 42,
/// item 4: the compiler keeps the rule the escaping lint could only guess at,
/// whatever a variable is called). Three things make one: duet's own text,
/// written as a string literal in the source; the language's escaping
/// (`init(escaping:in:)`); and joining values of the same language. Anything
/// else interpolated into a literal (a lane's name, a path, a reason) is
/// escaped on the way in; an `Int` goes in as its digits, which every language
/// here reads as written. There is no other initialiser, so no writer can put
/// raw text into an output, and nothing escaped is escaped twice.
package struct Escaped<Language: OutputLanguage>: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// The text, ready to write.
  package private(set) var text: String

  /// `text` escaped for `context` of the language.
  package init(escaping text: String, in context: Language.Context = Language.defaultContext) {
    self.text = Language.escape(text, in: context)
  }

  /// duet's own text: a literal in the source, never a value at run time.
  package init(stringLiteral literal: StaticString) {
    text = literal.description
  }

  package init(stringInterpolation: StringInterpolation) {
    text = stringInterpolation.text
  }

  package var description: String { text }

  package var isEmpty: Bool { text.isEmpty }

  package static func + (left: Self, right: Self) -> Self {
    var joined = left
    joined += right
    return joined
  }

  package static func += (left: inout Self, right: Self) {
    left.text += right.text
  }

  /// A literal's text kept as written; every other value escaped as it goes in.
  package struct StringInterpolation: StringInterpolationProtocol {
    fileprivate var text = ""

    package init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity * 2)
    }

    package mutating func appendLiteral(_ literal: StaticString) {
      text += literal.description
    }

    /// Text of the language already: kept as it is.
    package mutating func appendInterpolation(_ escaped: Escaped<Language>) {
      text += escaped.text
    }

    /// A count, a size, a port: its digits.
    package mutating func appendInterpolation(_ number: Int) {
      text += String(number)
    }

    /// Any other value is text, escaped for the language's default context.
    package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
      text += Language.escape(value.description, in: Language.defaultContext)
    }

    /// Any other value, escaped for `context`.
    package mutating func appendInterpolation(_ value: some CustomStringConvertible, in context: Language.Context) {
      text += Language.escape(value.description, in: context)
    }
  }
}

extension Sequence {
  /// The values one after another, `separator` between them.
  package func joined<Language>(separator: Escaped<Language> = "") -> Escaped<Language> where Element == Escaped<Language> {
    var result: Escaped<Language> = ""
    var first = true
    for value in self {
      if !first { result += separator }
      result += value
      first = false
    }
    return result
  }
}
