import Foundation
import Testing

/// Issue 54, item 7: the counts the docs give are the code's. architecture.md
/// and CONTRIBUTING.md said "twelve" targets when there were fourteen, and
/// the source tree left three out: each count and list is checked here against
/// what `Sources/` holds, so the next target added fails the test until the
/// docs name it.
@Suite("Counts and lists in the docs are the code's")
struct DocCountsTests {
  static let repository = LayerTests.repository
  static let numbers = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                        "nineteen", "twenty"]

  /// The folders under `Sources/`: a Swift library target `Duet…` each, the C ones, and the executable.
  static func sourceFolders() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Sources").path).filter { !$0.hasPrefix(".") }.sorted()
  }

  static func read(_ path: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func theNumberOfTargetsIsTheCodes() throws {
    let libraries = try Self.sourceFolders().filter { $0.hasPrefix("Duet") }
    let word = libraries.count - 10 < Self.numbers.count && libraries.count >= 10 ? Self.numbers[libraries.count - 10] : "\(libraries.count)"
    #expect(try Self.read("docs/architecture.md").contains("one SwiftPM package of \(word) Swift library targets"),
            "docs/architecture.md does not say \(word) (\(libraries.count) targets: \(libraries))")
    let contributing = try Self.read("CONTRIBUTING.md")
    #expect(contributing.contains("a Swift 6.3 package: \(word) library targets"), "CONTRIBUTING.md does not say \(word)")
    for target in libraries {
      #expect(contributing.contains("`\(target)`"), "CONTRIBUTING.md does not name \(target)")
    }
  }

  /// architecture.md gives `AccessSurfaceTests`' limit on `package` declarations.
  @Test func thePackageLimitIsTheGuards() throws {
    let limit = "\(AccessSurfaceTests.packageLimit / 1000),\(String(format: "%03d", AccessSurfaceTests.packageLimit % 1000))"
    #expect(try Self.read("docs/architecture.md").contains("`package` under \(limit),"), "docs/architecture.md does not give the limit \(limit)")
  }

  @Test func theSourceTreeNamesEveryFolder() throws {
    let architecture = try Self.read("docs/architecture.md")
    let tree = try #require(architecture.components(separatedBy: "## The source tree").last?.components(separatedBy: "```").dropFirst().first)
    for folder in try Self.sourceFolders() {
      #expect(tree.contains(" \(folder)/"), "the source tree in docs/architecture.md leaves out Sources/\(folder)/")
    }
  }
}
