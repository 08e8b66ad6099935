import Testing
@testable import DuetSupport

/// Issue 42, item 4: `Escaped` escapes every value interpolated into it for
/// the context it names, keeps literals and text of its own language as they
/// are, and writes an Int as its digits.
struct EscapedTests {
  /// A language that brackets what it escapes, so the tests can see where.
  enum Brackets: OutputLanguage {
    enum Context: Sendable { case round, square }
    static var defaultContext: Context { .round }
    static func escape(_ text: String, in context: Context) -> String {
      context == .round ? "(\(text))" : "[\(text)]"
    }
  }

  @Test func valuesAreEscapedForTheirContext() {
    let name = "a"
    let text: Escaped<Brackets> = "x \(name) \(name, in: .square) \(3) \(1.5)"
    #expect(text.text == "x (a) [a] 3 (1.5)")
  }

  @Test func escapedTextIsNotEscapedTwice() {
    let inner = Escaped<Brackets>(escaping: "b", in: .square)
    let outer: Escaped<Brackets> = "<\(inner)>"
    #expect(outer.text == "<[b]>")
    #expect([outer, "!"].joined(separator: ", ").text == "<[b]>, !")
    #expect((outer + "?").description == "<[b]>?")
  }
}
