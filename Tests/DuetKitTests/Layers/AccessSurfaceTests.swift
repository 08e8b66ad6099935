import Foundation
import Testing

/// Issue 42, item 1: the package ships one executable, so nothing in it is
/// API to the outside. What one target uses of another is `package`, and no
/// declaration is `public`: a `public` one would claim a promise to users the
/// package does not make (and an editor would offer it to them).
@Suite("No declaration is public")
struct AccessSurfaceTests {
  /// `file:line` of every declaration under `Sources/` marked `public`
  /// (text inside string literals and comments, such as generated Swift, is not a declaration).
  static func publicDeclarations() throws -> [String] {
    let sources = LayerTests.sources
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    let declaration = try Regex(#"^\s*(@\w+(\([^)]*\))?\s+)*public[\s(]"#)
    var found: [String] = []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      where line.contains(declaration) {
        found.append("\(file):\(index + 1)")
      }
    }
    return found.sorted()
  }

  @Test func nothingIsPublic() throws {
    let found = try Self.publicDeclarations()
    #expect(found == [], "make these `package`: \(found.prefix(20))")
  }

  /// The scanner itself finds what it is meant to find.
  @Test func theScannerSeesAttributedAndSetterForms() throws {
    let declaration = try Regex(#"^\s*(@\w+(\([^)]*\))?\s+)*public[\s(]"#)
    #expect("  public var x = 1".contains(declaration))
    #expect("  @Nullable public var x: Int?".contains(declaration))
    #expect("  @discardableResult public func f()".contains(declaration))
    #expect("  public(set) var y = 2".contains(declaration))
    #expect(!"  \"public struct TypeToken {\",".contains(declaration))
    #expect(!"  /// `public enum X`".contains(declaration))
    #expect(!"  package var x = 1".contains(declaration))
  }
}
