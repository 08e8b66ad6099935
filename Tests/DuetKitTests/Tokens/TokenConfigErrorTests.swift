@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing

/// Config text with both targets and one colour token `name` (line 14) whose
/// remaining lines start at line 15 with eight spaces of indentation.
private func colorConfig(name: String = "ink", _ lines: [String]) -> String {
  """
  version: 1
  swift:
    output: ios
    engine: DuetTheming
    theme: MainTheme
  kotlin:
    output: kmp
    package: dev.example
    engine: dev.engine
    palette: MainPalette
  colors:
    - group: G
      tokens:
        - name: \(name)

  """ + lines.map { "        " + $0 }.joined(separator: "\n") + "\n"
}

/// Config text with the Swift target only and one font token `name` (line 8), its lines from line 9.
private func fontConfig(name: String = "body", _ lines: [String]) -> String {
  """
  version: 1
  swift:
    output: ios
    engine: DuetTheming
    theme: MainTheme
  fonts:
    - tokens:
        - name: \(name)

  """ + lines.map { "        " + $0 }.joined(separator: "\n") + "\n"
}

private let fontLines = ["family: sans", "weight: 400", "size: 17", "lineHeight: 22"]

/// The diagnostics a config text produces (none when it loads).
private func errors(_ text: String) -> [Diagnostic] {
  do {
    _ = try TokenConfigLoader.parse(text, path: "parity/design-tokens.yaml")
    return []
  } catch {
    return error.diagnostics
  }
}

/// One diagnostic, at `line:column`, whose message holds every fragment.
private func expectError(
  _ text: String, line: Int, column: Int, _ fragments: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let found = errors(text)
  #expect(found.count == 1, "expected one error, got \(found.map(\.description))", sourceLocation: sourceLocation)
  guard let first = found.first else { return }
  #expect(first.location?.file == "parity/design-tokens.yaml", sourceLocation: sourceLocation)
  #expect(first.location?.line == line, "\(first)", sourceLocation: sourceLocation)
  #expect(first.location?.column == column, "\(first)", sourceLocation: sourceLocation)
  for fragment in fragments {
    #expect(first.message.contains(fragment), "\(first.message) should contain \(fragment)", sourceLocation: sourceLocation)
  }
}

@Suite("design tokens: config errors")
struct TokenConfigErrorTests {
  /// The helpers' base configs load, so each case below fails for its own reason only.
  @Test func baseConfigsAreValid() {
    #expect(errors(colorConfig(["light: \"#000000\"", "dark: \"#FFFFFF\""])).isEmpty)
    #expect(errors(fontConfig(fontLines + ["swift:", "  textStyle: body"])).isEmpty)
  }

  /// Text that is not YAML is an error at its line, not a crash.
  @Test func notYAML() {
    let found = errors("version: 1\ncolors: [\n  - name: x\n")
    #expect(found.count == 1)
    #expect(found.first?.location?.file == "parity/design-tokens.yaml")
    #expect((found.first?.location?.line ?? 0) >= 2)
  }

  /// An unknown key names the token it sits on and suggests the nearest known key.
  @Test func unknownKeySuggestsTheNearest() {
    expectError(
      colorConfig(["light: \"#000000\"", "dark: \"#FFFFFF\"", "lightAlpah: 0.5"]), line: 17, column: 9,
      "colour token 'ink'", "unknown key 'lightAlpah'", "did you mean 'lightAlpha'?")
    expectError(
      fontConfig(fontLines + ["swift:", "  textStyle: body", "trackin: 0.1"]), line: 15, column: 9,
      "font token 'body'", "unknown key 'trackin'", "did you mean 'tracking'?")
  }

  /// `light` without `dark` is refused, naming the token.
  @Test func lightWithoutDark() {
    expectError(colorConfig(["light: \"#000000\""]), line: 15, column: 9, "colour token 'ink'", "'light' without 'dark'")
  }

  /// A colour that is not `#RRGGBB` is refused with the form expected.
  @Test(arguments: ["\"#12345\"", "\"#1234567\"", "\"12345G\"", "\"#GGGGGG\"", "red"])
  func colourNotRRGGBB(value: String) {
    expectError(
      colorConfig(["light: \(value)", "dark: \"#FFFFFF\""]), line: 15, column: 16, "colour token 'ink'",
      "'light' must be a colour \"#RRGGBB\"")
  }

  /// An unquoted `#` is a YAML comment; the message says so.
  @Test func unquotedHashIsExplained() {
    expectError(colorConfig(["value: #000000"]), line: 15, column: 15, "got nothing", "quote it")
  }

  /// Alpha outside 0 to 1, or not a number, is refused on every alpha key.
  @Test(arguments: [("lightAlpha", "1.5"), ("lightAlpha", "-0.1"), ("darkAlpha", "\"12%\""), ("darkAlpha", "half"), ("darkAlpha", "\"0.5\"")])
  func alphaOutOfRangeOrNotANumber(key: String, value: String) {
    expectError(
      colorConfig(["light: \"#000000\"", "dark: \"#FFFFFF\"", "\(key): \(value)"]), line: 17, column: 11 + key.count,
      "colour token 'ink'", "'\(key)' must be a number from 0 to 1")
    expectError(colorConfig(["value: \"#000000\"", "alpha: \(value)"]), line: 16, column: 16, "'alpha' must be a number from 0 to 1")
  }

  /// A name used twice in one vocabulary is refused at the second use, pointing at the first.
  @Test func duplicateName() {
    let text = colorConfig(["value: \"#000000\""]) + "      - name: ink\n        value: \"#FFFFFF\"\n"
    expectError(text, line: 16, column: 15, "colour token 'ink'", "duplicate name in SemanticColor", "14:15")
  }

  /// The same name may appear once per vocabulary: a colour and a font can share it.
  @Test func namesAreScopedPerVocabulary() {
    let text = colorConfig(["value: \"#000000\""]) + "fonts:\n  - tokens:\n      - name: ink\n" + (fontLines + ["swift:", "  textStyle: body"]).map { "        " + $0 }.joined(separator: "\n") + "\n"
    #expect(errors(text).isEmpty)
  }

  /// A name that is not lowerCamelCase is refused with an example of the form.
  @Test(arguments: ["CardSurface", "card_surface", "card-surface", "2card", "cärd"])
  func nameNotLowerCamelCase(name: String) {
    expectError(colorConfig(name: name, ["value: \"#000000\""]), line: 14, column: 15, "must be lowerCamelCase")
  }

  /// Words Swift reserves (they would need backticks) are refused, by name.
  @Test(arguments: ["default", "class", "in", "self", "case", "struct", "init", "nil", "true", "where", "associatedtype", "fallthrough", "inout", "rethrows", "is"])
  func swiftReservedWord(name: String) {
    expectError(colorConfig(name: name, ["value: \"#000000\""]), line: 14, column: 15, "reserved word in Swift")
  }

  /// Kotlin's hard keywords that Swift allows are refused too.
  @Test(arguments: ["object", "fun", "val", "when", "interface", "null", "package", "this", "typeof"])
  func kotlinHardKeyword(name: String) {
    expectError(colorConfig(name: "\"\(name)\"", ["value: \"#000000\""]), line: 14, column: 15, "hard keyword in Kotlin")
  }

  /// Both keyword lists are complete against the languages' references.
  @Test func keywordListsAreComplete() {
    let kotlin: Set = [
      "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null",
      "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var",
      "when", "while",
    ]
    #expect(TokenNames.kotlinHardKeywords == kotlin)
    for word in ["associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
                 "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
                 "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
                 "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
                 "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
                 "try", "_"] {
      #expect(TokenNames.swiftReserved.contains(word), "\(word)")
    }
  }

  /// A weight that is not a multiple of 100 from 100 to 900 is refused.
  @Test(arguments: ["450", "1000", "0", "bold", "400.0"])
  func weightNotAHundredStep(weight: String) {
    let lines = ["family: sans", "weight: \(weight)", "size: 17", "lineHeight: 22", "swift:", "  textStyle: body"]
    expectError(fontConfig(lines), line: 10, column: 17, "font token 'body'", "'weight' must be a multiple of 100 from 100 to 900")
  }

  /// With a Swift target every font needs `swift.textStyle`; without one it may leave it out.
  @Test func fontWithoutTextStyle() {
    expectError(fontConfig(fontLines), line: 8, column: 9, "font token 'body'", "missing 'swift: textStyle:'")
    let kotlinOnly = fontConfig(fontLines).replacingOccurrences(
      of: "swift:\n  output: ios\n  engine: DuetTheming\n  theme: MainTheme",
      with: "kotlin:\n  output: kmp\n  package: dev.example\n  engine: dev.engine\n  palette: MainPalette")
    #expect(errors(kotlinOnly).isEmpty)
  }

  /// An unknown text style is refused with the nearest known one.
  @Test func unknownTextStyle() {
    expectError(fontConfig(fontLines + ["swift:", "  textStyle: headlin"]), line: 14, column: 22, "unknown text style \"headlin\"", "did you mean 'headline'?")
  }

  /// An unknown family is refused with the three allowed.
  @Test func unknownFamily() {
    let lines = ["family: script", "weight: 400", "size: 17", "lineHeight: 22", "swift:", "  textStyle: body"]
    expectError(fontConfig(lines), line: 9, column: 17, "'family' must be one of serif, sans, mono")
  }

  /// A gradient with fewer than two stops is refused, in both forms.
  @Test func gradientWithFewerThanTwoStops() {
    let head = "version: 1\nkotlin:\n  output: kmp\n  package: dev.example\n  engine: dev.engine\n  palette: P\ngradients:\n  - name: hero\n"
    expectError(head + "    stops: [\"#000000\"]\n", line: 9, column: 12, "gradient 'hero'", "needs at least two stops, got 1")
    expectError(head + "    light: [\"#000000\", \"#FFFFFF\"]\n    dark: [\"#000000\"]\n", line: 10, column: 11, "gradient 'hero'", "'dark' needs at least two stops")
    expectError(head + "    stops: [\"#000000\", \"#FFFFFF\"]\n    lightAlpha: 0.5\n", line: 10, column: 5, "unknown key 'lightAlpha'")
  }

  /// An output path that leaves the tree is refused in the config, before anything is written.
  @Test(arguments: ["../elsewhere", "/tmp/out", "a/../../b", "~/out"])
  func outputOutsideTheTree(path: String) {
    let text = colorConfig(["value: \"#000000\""]).replacingOccurrences(of: "output: ios", with: "output: \(path)")
    expectError(text, line: 3, column: 11, "the swift target", "'output' must be a folder inside the tree")
  }

  /// A version newer than 1 is refused by name.
  @Test func newerVersion() {
    let text = colorConfig(["value: \"#000000\""]).replacingOccurrences(of: "version: 1", with: "version: 2")
    expectError(text, line: 1, column: 10, "token config version 2 is newer than this duet understands (1)")
  }

  /// A config with no target is refused.
  @Test func noTarget() {
    expectError("version: 1\ncolors: []\n", line: 1, column: 1, "declares no target")
  }

  /// A group heading must fit on one line, since it becomes a section comment.
  @Test func multiLineHeading() {
    let text = colorConfig(["value: \"#000000\""]).replacingOccurrences(of: "  - group: G\n", with: "  - group: \"G\\nH\"\n")
    expectError(text, line: 12, column: 12, "'group' must be a heading on one line")
  }

  /// Every error is collected in one pass, each at its own position.
  @Test func everyErrorIsCollected() {
    let text = colorConfig(["light: \"#12345\"", "lightAlpha: 2", "dark: \"#FFFFFF\"", "shade: 1"])
      .replacingOccurrences(of: "version: 1", with: "version: 3")
    let found = errors(text)
    #expect(found.count == 4)
    #expect(found.map { $0.location?.line ?? 0 }.sorted() == [1, 15, 16, 18])
  }
}
