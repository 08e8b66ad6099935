import Foundation
import Testing
@testable import DuetApp
@testable import DuetModel
@testable import DuetAdopt
@testable import DuetSupport

/// Line breaks YAML 1.1 or 1.2 knows, and controls, that must never reach a
/// YAML file raw (issue 27, defect 2).
enum YAMLBreaks {
  static let raw: [Unicode.Scalar] = ["\r", "\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}", "\u{1B}", "\u{0}", "\u{7F}", "\u{9B}"]
  static let samples: [String] = raw.map { "a\(String($0))- {name: pwn, sh: touch PWNED}\($0)#" }
    + ["P\r- {name: pwn, sh: touch PWNED}\r#", "P\r - {name: pwn, sh: touch PWNED}\r#", "\u{FEFF}bom", "\u{202E}rtl", "0x1F", "1_000", "1:30", ".inf", "On", "NULL", "~"]

  static func holdsRaw(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 != "\n" && (raw.contains($0) || $0 == "\u{FEFF}" || $0 == "\u{202E}") }
  }
}

@Suite struct YAMLTextTests {
  /// Every scalar YAMLText writes reads back through libyaml as the same text,
  /// and holds no raw line break (NEL, LS and PS included) or control.
  @Test func scalarsWithEveryLineBreakRoundTrip() throws {
    for sample in YAMLBreaks.samples {
      let written = YAMLText.scalar(sample).text
      #expect(!written.unicodeScalars.contains { YAMLBreaks.raw.contains($0) || $0 == "\u{FEFF}" }, "\(written.debugDescription)")
      let node = try YAMLParser.parse("key: \(written)\nother: 1\n", file: "t.yaml")
      #expect(node["key"]?.scalar == sample, "\(sample.debugDescription) → \(written.debugDescription)")
      #expect(node["other"]?.scalar == "1")
    }
  }

  /// A lane or folder named like a YAML 1.1 binary integer or timestamp is
  /// quoted: GitLab's Ruby and PyYAML read plain `0b11` as 3 and `2026-01-01`
  /// as a date (which a safe loader refuses), not as the name.
  @Test func yaml11BinaryNumbersAndTimestampsAreQuoted() {
    for sample in ["0b11", "-0b1_0", "+0b1", "2026-01-01", "2026-1-1", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5"] {
      #expect(YAMLText.scalar(sample).text == "\"\(sample)\"", "\(sample)")
    }
    for plain in ["b11", "0.b1", "2026-01-01-nightly", "v2026-01-01", "2026-01"] {
      #expect(YAMLText.scalar(plain).text == plain, "\(plain)")
    }
  }

  /// Issue 40: a long command folded at its spaces (`sh: >-`) reads back
  /// through libyaml as the same text, whatever indicators, quotes, `#` or `: `
  /// its words hold, each line within the width where the words allow; text that
  /// folding would change (two spaces, an end space, a tab, a line break, non-ASCII) is not folded.
  @Test func foldedCommandsRoundTrip() throws {
    var seed: UInt64 = 0xD1B54A32D192ED03
    func next(_ bound: Int) -> Int {
      seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
      return Int(seed % UInt64(bound))
    }
    let pieces = ["swift", "test", "--xunit-output", "'a b'", "\"q\"", "#x", "a:", ": b", "-", "|", ">", "&x", "*y", "!t", "%", "@", "`", "{a}", "[b]", "~", "null", "'", "\\", "x#y"]
    for _ in 0..<300 {
      let command = (0..<(1 + next(30))).map { _ in pieces[next(pieces.count)] }.joined(separator: " ")
      let lines = try #require(YAMLText.folded(command, indent: "  ", width: 30)).map(\.text)
      #expect(lines.allSatisfy { $0.count <= 30 || !$0.dropFirst(2).contains(" ") })
      let node = try YAMLParser.parse("sh: >-\n" + lines.joined(separator: "\n") + "\nother: 1\n", file: "t.yaml")
      #expect(node["sh"]?.scalar == command, "\(command.debugDescription)")
      #expect(node["other"]?.scalar == "1")
    }
    for unfoldable in ["a  b", " a", "a ", "a\tb", "a\nb", "café au lait", ""] {
      #expect(YAMLText.folded(unfoldable, indent: "  ", width: 5) == nil)
    }
  }

  /// Comment text YAMLText writes holds no line break and no control, so a
  /// `#` comment line stays one line and parses as nothing.
  @Test func commentsStayOneLine() throws {
    for sample in YAMLBreaks.samples {
      let line = "# " + YAMLText.comment(sample).text
      #expect(!line.contains("\n") && !YAMLBreaks.holdsRaw(line), "\(line.debugDescription)")
      let node = try YAMLParser.parse("\(line)\nkey: 1\n", file: "t.yaml")
      #expect(node.mapping?.count == 1, "\(line.debugDescription)")
    }
  }

  /// The manifest init writes for a lane whose reason names a hostile folder
  /// holds exactly the planned lane: no key, no lane from the folder's name.
  @Test func initManifestCommentsHoldHostileReasons() throws {
    // A folder name holds any byte but NUL and `/`.
    for sample in YAMLBreaks.samples where !sample.contains("\u{0}") {
      var survey = TreeSurvey()
      survey.swiftPackages = [SwiftPackage(path: sample, manifestFile: sample + "/Package.swift", testTargets: ["T"])]
      let text = ManifestWriter.render(AdoptionPlan(survey))
      #expect(!YAMLBreaks.holdsRaw(text), "\(text.debugDescription)")
      let manifest = try ManifestLoader.parse(try YAMLParser.parse(text, file: "lanes/manifest.yaml"), path: "lanes/manifest.yaml", builtins: BuiltinSet.standard.vocabulary)
      #expect(manifest.lanes.count == 1 && !manifest.lanes.contains { $0.name == "pwn" }, "\(text)")
      #expect(manifest.lanes.first?.commandText
              == "swift test --package-path \(ShellWord.quoted(sample)) --xunit-output \(ShellWord.quoted(sample + "/.build/duet-xunit.xml"))", "\(text)")
      #expect(manifest.lanes.first?.reports == [sample + "/.build/duet-xunit*.xml"], "\(text)")
    }
  }
}
