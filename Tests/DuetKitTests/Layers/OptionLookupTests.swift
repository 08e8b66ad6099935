import Foundation
import Testing

/// Issue 42, item 2: typed options. A command looks an option up through the
/// key it declared (`arguments[jobs]`), never by its spelling, so a misspelt
/// lookup does not compile; this keeps the string lookups at zero (there were 95).
@Suite("Options are looked up by key, not by string")
struct OptionLookupTests {
  /// Each `arguments.xxx("--` under `Sources/`, as `file: the lookup`.
  static func stringLookups() throws -> [String] {
    let sources = LayerTests.sources
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    let pattern = try Regex(#"arguments\.[A-Za-z]+\("--[^"]*""#)
    return try files.filter { $0.hasSuffix(".swift") }.sorted().flatMap { file in
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      return text.matches(of: pattern).map { "\(file): \(text[$0.range])" }
    }
  }

  @Test func noOptionIsLookedUpByItsSpelling() throws {
    let lookups = try Self.stringLookups()
    #expect(lookups == [], "declare the option once as a key and look it up through it: \(lookups.count) left")
  }
}
