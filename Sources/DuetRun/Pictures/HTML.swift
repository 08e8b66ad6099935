/// Text that is HTML, and the only text the pages are built of (issue 42,
/// item 4: the compiler keeps the rule EscapingRuleTests could only guess at).
/// Only three things make one: duet's own markup, written as a string literal
/// in the source; `HTMLText.escaped`; and joining HTML values. Anything else
/// interpolated into HTML (a lane's name, a number, a time) is escaped on the
/// way in, so no writer can put text from the tree or the store into a page raw,
/// whatever its variable is called, and nothing escaped is escaped twice.
package struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// The markup, ready to write.
  package private(set) var markup: String

  /// Markup made by `HTMLText.escaped`, the one place that vouches for it.
  init(escapedByHTMLText markup: String) {
    self.markup = markup
  }

  /// duet's own markup: a literal in the source, never a value at run time.
  package init(stringLiteral literal: StaticString) {
    markup = literal.description
  }

  package init(stringInterpolation: StringInterpolation) {
    markup = stringInterpolation.markup
  }

  package var description: String { markup }

  package var isEmpty: Bool { markup.isEmpty }

  package static func + (left: HTML, right: HTML) -> HTML {
    HTML(escapedByHTMLText: left.markup + right.markup)
  }

  package static func += (left: inout HTML, right: HTML) {
    left.markup += right.markup
  }

  /// A literal's markup kept as written; every other value escaped as it goes in.
  package struct StringInterpolation: StringInterpolationProtocol {
    var markup = ""

    package init(literalCapacity: Int, interpolationCount: Int) {
      markup.reserveCapacity(literalCapacity * 2)
    }

    package mutating func appendLiteral(_ literal: StaticString) {
      markup += literal.description
    }

    /// HTML already: kept as it is.
    package mutating func appendInterpolation(_ html: HTML) {
      markup += html.markup
    }

    /// Any other value is text, and is escaped.
    package mutating func appendInterpolation(_ text: some CustomStringConvertible) {
      markup += HTMLText.escaped(text.description).markup
    }
  }
}

extension Sequence where Element == HTML {
  /// The values one after another, `separator` between them.
  package func joined(separator: HTML = "") -> HTML {
    var result: HTML = ""
    var first = true
    for html in self {
      if !first { result += separator }
      result += html
      first = false
    }
    return result
  }
}
