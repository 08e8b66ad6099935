import Testing
@testable import DuetSupport

/// Issue 42, item 4: `YAML` is made only of duet's literal YAML, `YAMLText`'s
/// escaping and other YAML, so a value interpolated into a workflow or a
/// manifest is escaped for where it goes, whatever it is called.
@Suite("YAML as a type")
struct YAMLTypeTests {
  static let lane = "x\n  evil: true"

  @Test func valuesAreScalarsThatReadBack() throws {
    let yaml: YAML = "name: \(Self.lane)\nother: 1\n"
    #expect(yaml.text == "name: \"x\\n  evil: true\"\nother: 1\n")
    let node = try YAMLParser.parse(yaml.text, file: "t.yaml")
    #expect(node["name"]?.scalar == Self.lane && node["evil"] == nil && node.mapping?.count == 2)
  }

  @Test func commentsStayOneLine() {
    let yaml: YAML = "# from \(Self.lane, in: .comment)\n"
    #expect(yaml.text == "# from x\\n  evil: true\n")
  }

  @Test func identifiersArePlainOnlyWhenSafe() {
    let ids: [YAML] = ["inf", "lane_x", "duet-build-linux", "yes", "9lives", Self.lane].map { YAML(escaping: $0, in: .identifier) }
    #expect(ids.map(\.text) == ["inf", "lane_x", "duet-build-linux", "\"yes\"", "9lives", "\"x\\n  evil: true\""])
  }

  @Test func linesHoldNoLineBreak() {
    let yaml: YAML = "run: |\n  \(Self.lane, in: .line)\n"
    #expect(yaml.text == "run: |\n  x\u{FFFD}  evil: true\n")
  }

  /// A shell command goes into YAML as shell text, then escaped as a scalar.
  @Test func shellTextInARunScalarIsEscapedTwice() {
    let command: ShellText = "rm \(Self.lane)"
    let yaml: YAML = "run: \(command)"
    #expect(yaml.text == #"run: "rm 'x\n  evil: true'""#)
  }

  @Test func listsAndLiteralsAreKept() {
    let needs: YAML = "needs: \(YAMLText.list(["a", "yes", Self.lane]))"
    #expect(needs.text == "needs: [a, \"yes\", \"x\\n  evil: true\"]")
    #expect(([needs, "on:", "\(3)"] as [YAML]).joined(separator: "\n").text == needs.text + "\non:\n3")
  }
}
