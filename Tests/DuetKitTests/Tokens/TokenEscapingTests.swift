import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
@testable import DuetFuzzSupport

/// Token docs, notes and headings that try to break out of the comments they
/// are written into (issue 27, defect 1).
enum HostileDocs {
  /// Each is a doc, a note and a heading (the ones without `\n`) in the config.
  static let texts: [String] = [
    "Card.\rstatic/**/let/**/injected:Int={print(\"X\");return/**/42}()",
    "Card.\u{85}static let injectedNEL = 1",
    "Card.\u{2028}static let injectedLS = 1",
    "Card.\u{2029}static let injectedPS = 1",
    "Card.\u{0B}static let injectedVT = 1\u{0C}static let injectedFF = 2",
    "Ends */ val injectedKt = 1 /* and opens /* nested",
    "*/*/**/",
    "A backslash \\ and \\u{41} and \\\\ stay as they are.",
    "Escape \u{1B}]0;title\u{07} and \u{1B}[31mred\u{1B}[0m, NUL \u{0}, DEL \u{7F}, C1 \u{9B}.",
    "Bidi \u{202E}desrever\u{202C} and \u{2066}isolate\u{2069}.",
    "\"\"\" triple ${'$'}{x} `tick` $(id) \\(interp)",
  ]

  /// A YAML double-quoted scalar holding `text`: every scalar outside printable
  /// ASCII written as `\U` and eight hex digits, so the YAML itself stays plain.
  static func yamlQuoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      if scalar == "\"" || scalar == "\\" {
        out += "\\" + String(scalar)
      } else if scalar.value >= 0x20 && scalar.value < 0x7F {
        out.unicodeScalars.append(scalar)
      } else {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
      }
    }
    return out + "\""
  }

  /// A config in `style` (engine, or swiftui with compose) with one colour,
  /// font, gradient and scale step per hostile text, each carrying it as its
  /// doc and note, and the headings without line breaks as group names.
  static func config(plain: Bool) throws -> TokenConfig {
    var yaml = "version: 1\n"
    yaml += plain
      ? "swift:\n  output: ios/T\n  style: swiftui\nkotlin:\n  output: kt/T\n  package: dev.example.hostileplain\n  style: compose\n"
      : "swift:\n  output: ios/T\n  engine: DuetTheming\n  theme: MainTheme\nkotlin:\n  output: kt/T\n  package: dev.example.hostile\n  engine: dev.modaal.duet.services.theming\n  palette: MainPalette\n"
    yaml += "colors:\n"
    for (index, text) in texts.enumerated() {
      let heading = text.contains(where: \.isNewline) ? "Group \(index)" : text
      yaml += "  - group: \(yamlQuoted(heading))\n    tokens:\n"
      yaml += "      - name: color\(index)\n        doc: \(yamlQuoted(text))\n        note: \(yamlQuoted(text))\n        value: \"#102030\"\n"
    }
    yaml += "fonts:\n  - tokens:\n"
    for (index, text) in texts.enumerated() {
      yaml += "      - name: font\(index)\n        doc: \(yamlQuoted(text))\n        note: \(yamlQuoted(text))\n"
      yaml += "        family: sans\n        weight: 400\n        size: 17\n        lineHeight: 22\n        swift: {textStyle: body}\n"
    }
    yaml += "spacing:\n"
    for (index, text) in texts.enumerated() { yaml += "  s\(index): {value: \(index + 1), doc: \(yamlQuoted(text))}\n" }
    return try TokenConfigLoader.parse(yaml, path: TokenConfig.defaultPath)
  }

  /// The comment text of `file`'s lines that start (after blanks) with one of
  /// the comment prefixes both languages use, prefix removed.
  static func commentBodies(_ contents: String) -> [String] {
    contents.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
      let trimmed = line.drop { $0 == " " }
      for prefix in ["/// ", "// MARK: - ", "// MARK: ", "// ", " * ", "* "] where trimmed.hasPrefix(prefix) {
        return String(trimmed.dropFirst(prefix.count))
      }
      return nil
    }
  }
}

@Suite struct TokenEscapingTests {
  /// No generated Swift or Kotlin file holds a raw line break other than `\n`, a
  /// control character or a bidi override, whatever the docs, notes and headings
  /// hold, in either style; and no text after a CR or NEL becomes a member (the
  /// `injected` declarations of the docs appear only inside comments).
  @Test(arguments: [false, true]) func hostileDocsStayInTheirComments(plain: Bool) throws {
    let plan = TokenPlan(try HostileDocs.config(plain: plain))
    for file in plan.files {
      let bad = file.contents.unicodeScalars.filter { SourceLanguage.needsEscape($0) }
      #expect(bad.isEmpty, "\(file.path) holds raw \(bad.map { String($0.value, radix: 16) })")
      for line in file.contents.split(separator: "\n") where line.contains("injected") {
        let trimmed = line.drop { $0 == " " }
        #expect(trimmed.hasPrefix("//") || trimmed.hasPrefix("* "), "\(file.path): \(line)")
      }
    }
  }

  /// Kotlin KDoc never closes early nor opens a nested comment: in every Kotlin
  /// file, the `/*` and `*/` are exactly the KDoc blocks duet opens and closes.
  @Test(arguments: [false, true]) func kdocHoldsNoCommentMarkers(plain: Bool) throws {
    let plan = TokenPlan(try HostileDocs.config(plain: plain))
    for file in plan.files where file.path.hasSuffix(".kt") {
      for line in file.contents.split(separator: "\n") {
        let trimmed = line.drop { $0 == " " }
        if trimmed == "/**" || trimmed == "*/" || (trimmed.hasPrefix("/**") && trimmed.hasSuffix("*/")) { continue }
        #expect(!line.contains("*/") && !line.contains("/*"), "\(file.path): \(line)")
      }
    }
  }

  /// Every hostile doc decodes back from the comment lines it was written as:
  /// the lines of each paragraph joined, unescaped, give the doc's words.
  @Test func docsDecodeBack() throws {
    for language in [SourceLanguage.swift, .kotlin] {
      for text in HostileDocs.texts {
        var out = SourceText()
        out.comment(text, prefix: "/// ", in: language)
        let bodies = HostileDocs.commentBodies(out.text)
        let decoded = SourceLanguage.decodeComment(bodies.joined(separator: " "))
        let words = text.split(separator: " ").joined(separator: " ")
        #expect(decoded == words, "\(language): \(decoded.debugDescription) != \(words.debugDescription)")
      }
    }
  }

  /// The byte test that lets a plain doc through as it is gives what the
  /// scalar-by-scalar escape gives, on the hostile docs and on seeded texts
  /// built from the bytes either rule looks at.
  @Test func plainCommentsAreTheirOwnEscape() {
    var random = SeededRandom(seed: 31)
    let pieces = ["a", " ", "\t", "\n", "*", "/", "\\", "\r", "é", "\u{85}", "\u{202E}", "~", "\u{7F}", "}", "Card."]
    var texts = HostileDocs.texts + ["", "Plain prose, with a comma.", "a/b*c", "ends with *", "/"]
    for _ in 0..<2_000 {
      texts.append((0..<random.below(12)).map { _ in random.pick(pieces) }.joined())
    }
    var plain = 0
    for text in texts {
      for language in [SourceLanguage.swift, .kotlin] {
        for keeping in [false, true] {
          let escaped = language.escapedComment(text, keepingParagraphs: keeping)
          #expect(language.comment(text, keepingParagraphs: keeping) == escaped, "\(language) \(text.debugDescription)")
          if language.isPlainComment(text, keepingParagraphs: keeping) {
            plain += 1
            #expect(escaped == text)
          }
        }
      }
    }
    #expect(plain > 100)
  }

  /// A string literal of either language holds no raw line break or control,
  /// and its escapes read back to the text (checked here by the Swift rules; the
  /// compile tests check that both compilers accept them).
  @Test func stringLiteralsEscapeEverything() {
    for text in HostileDocs.texts + ["emoji 🎨 past the BMP", "dollar $x ${y}"] {
      for language in [SourceLanguage.swift, .kotlin] {
        let literal = language.stringLiteral(text)
        #expect(!literal.unicodeScalars.contains { SourceLanguage.needsEscape($0) || $0 == "\n" }, "\(literal)")
        #expect(literal.first == "\"" && literal.last == "\"")
      }
      #expect(SourceLanguage.decodeComment(String(SourceLanguage.swift.stringLiteral(text).dropFirst().dropLast())
        .replacingOccurrences(of: "\\\"", with: "\"")) == text)
    }
  }

  /// `--check` on a tree whose token files an older duet wrote with a doc's
  /// carriage return raw (the injected member compiling) fails: the files are
  /// stale, not up to date.
  @Test func checkNoticesARawCarriageReturn() throws {
    let tree = try TokenTempTree()
    let doc = HostileDocs.texts[0]
    try tree.write("version: 1\nswift:\n  output: ios/T\n  style: swiftui\ncolors:\n  - tokens:\n      - name: card\n        doc: \(HostileDocs.yamlQuoted(doc))\n        value: \"#FFFFFF\"\n", to: TokenConfig.defaultPath)
    #expect(DesignTokens.run(root: tree.root, check: false).exitCode == 0)
    #expect(DesignTokens.run(root: tree.root, check: true).exitCode == 0)
    let file = try #require(TokenPlan(try TokenConfigLoader.load(root: tree.root)).files.first { $0.contents.contains("injected") })
    let old = file.contents.replacingOccurrences(of: "\\u{D}", with: "\r")
    #expect(old != file.contents)
    try tree.write(old, to: file.path)
    let check = DesignTokens.run(root: tree.root, check: true)
    #expect(check.exitCode == 1, "\(check.text)")
  }

  /// A file written before this fix, whose doc's CR let a member through, fails
  /// `--check` by code too: a carriage return ends a `//` comment for the code
  /// comparison as it does for the compilers, so the injected member is code.
  @Test func codeComparisonEndsLineCommentsAtCarriageReturn() {
    let clean = "enum A {\n  /// Card.\n  case a\n}\n"
    let injected = "enum A {\n  /// Card.\rstatic let injected = 42\n  case a\n}\n"
    #expect(!CodeComparison.sameCode(clean, injected))
  }
}
