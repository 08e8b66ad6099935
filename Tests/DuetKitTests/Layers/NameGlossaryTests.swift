import Foundation
import Testing

/// Issue 42, item 5: the `Verify…` and `Run…` types are each one stage of a
/// verify, and architecture.md's table says which. A new one the table does
/// not name fails here, so the names cannot drift back into two types that
/// carry the same thing without a reader seeing it.
@Suite("Every Verify… and Run… type is in architecture.md's table")
struct NameGlossaryTests {
  static func declaredNames() throws -> Set<String> {
    let sources = LayerTests.sources
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    let declaration = try Regex(#"(struct|enum|class|protocol|typealias) ((Verify|Run)\w*)"#)
    var names = Set<String>()
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        for match in line.matches(of: declaration) {
          if let name = match.output[2].substring { names.insert(String(name)) }
        }
      }
    }
    return names
  }

  @Test func theTableNamesEveryOne() throws {
    let doc = LayerTests.sources.deletingLastPathComponent().appendingPathComponent("docs/architecture.md")
    let text = try String(contentsOf: doc, encoding: .utf8)
    let table = try #require(text.components(separatedBy: "## The names of a verify").dropFirst().first)
    let names = try Self.declaredNames()
    #expect(names.count > 15, "the scan found \(names.sorted())")
    let missing = names.filter { !table.contains("`\($0)`") && !table.contains(".\($0)`") }
    #expect(missing.isEmpty, "add to architecture.md's table of names: \(missing.sorted())")
  }
}
