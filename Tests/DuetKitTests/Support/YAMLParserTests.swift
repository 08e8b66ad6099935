import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("YAML reading")
struct YAMLParserTests {
  /// Marks are 1-based lines and columns, pointing at where each node starts.
  @Test func marksAreOneBased() throws {
    let node = try YAMLParser.parse("a: 1\nlist:\n  - x\n  - y\n", file: "f.yaml")
    #expect(node.location.line == 1 && node.location.column == 1)
    let list = try #require(node["list"]?.sequence)
    #expect(list[1].location == SourceLocation(file: "f.yaml", line: 4, column: 5))
    #expect(list[1].scalar == "y")
  }

  /// Text that is not YAML is an error with the parser's position, not a crash.
  @Test func notYAMLNamesThePosition() {
    #expect(throws: YAMLError.self) { try YAMLParser.parse("a: [1, 2\nb: c", file: "bad.yaml") }
    do {
      _ = try YAMLParser.parse("key: value: other\n", file: "bad.yaml")
      Issue.record("expected an error")
    } catch {
      let text = error.description
      #expect(text.hasPrefix("bad.yaml:1:"))
      #expect(text.contains("not valid YAML"))
    }
  }

  /// A "billion laughs" file stops at the alias budget with the alias's line.
  @Test func aliasBombIsRefused() {
    var text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    var previous = "a"
    for level in 1...8 {
      let name = "l\(level)"
      text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
      previous = name
    }
    do {
      _ = try YAMLParser.parse(text, file: "bomb.yaml")
      Issue.record("expected the alias budget to refuse the file")
    } catch {
      #expect(error.description.contains("aliases expand to more than 10000 nodes"))
      #expect(error.description.hasPrefix("bomb.yaml:"))
    }
  }

  /// Aliases within the budget are expanded into copies of the anchored node.
  @Test func smallAliasesExpand() throws {
    let node = try YAMLParser.parse("base: &b {x: 1}\ncopy: *b\n", file: "f.yaml")
    #expect(node["copy"]?["x"]?.scalar == "1")
  }

  /// A key given twice in one mapping is an error naming the key and its line.
  @Test func duplicateKeysAreErrors() {
    do {
      _ = try YAMLParser.parse("a: 1\nb: 2\na: 3\n", file: "d.yaml")
      Issue.record("expected an error")
    } catch {
      #expect(error.description == "d.yaml:3:1: error: duplicate key 'a' in this mapping")
    }
  }

  /// Quoted scalars are never null; plain empty ones are.
  @Test func nullOnlyWhenPlain() throws {
    let node = try YAMLParser.parse("a:\nb: ''\nc: ~\n", file: "f.yaml")
    #expect(node["a"]?.isNull == true)
    #expect(node["b"]?.isNull == false)
    #expect(node["c"]?.isNull == true)
  }
}
