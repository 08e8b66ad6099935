import Foundation
import Testing

/// The compiler checks a `Sendable` type's safety; an `@unchecked Sendable`
/// one is vouched for by hand, so every one is a place a data race can hide.
/// Issue 54: at most four in `Sources/`, each saying in its doc comment what
/// makes it safe (`What makes it safe:`), so a reader can check the claim.
/// A new one should hold its shared state in `Locked` and be checked instead.
struct HandMadeSafetyTests {
  static let limit = 4

  /// Each `@unchecked Sendable` declaration in `Sources/`, and whether the doc
  /// comment above it says what makes it safe.
  static func declarations() throws -> [(place: String, saysWhy: Bool)] {
    let sources = FunctionLengthTests.repository.appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    var found: [(String, Bool)] = []
    for file in files.sorted() where file.hasSuffix(".swift") {
      let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
      for (number, line) in lines.enumerated() where line.contains("@unchecked Sendable") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        let comment = lines[..<number].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("///") }
        let text = comment.reversed().map { $0.trimmingCharacters(in: .whitespaces).dropFirst(3) }.joined()
        found.append(("Sources/\(file):\(number + 1)", text.contains("What makes it safe:")))
      }
    }
    return found
  }

  @Test func fewAndEachSaysWhy() throws {
    let found = try Self.declarations()
    #expect(found.count <= Self.limit, "\(found.count) @unchecked Sendable types (at most \(Self.limit)): \(found.map(\.place))")
    #expect(found.filter { !$0.saysWhy }.map(\.place) == [], "say in the doc comment what makes it safe (`What makes it safe:`)")
  }
}
