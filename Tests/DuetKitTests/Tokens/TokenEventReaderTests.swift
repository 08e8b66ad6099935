@testable import DuetFuzzSupport
import Foundation
import Testing
@testable import DuetModel
@testable import DuetSupport
@testable import DuetTokens

/// The token config read straight from libyaml's events (issue 31) against the
/// checked path through the `YAMLNode` tree: the same model wherever the event
/// reader answers, and the same model or the same diagnostics (file, line,
/// column, wording) from the loader on every input, valid or broken.
@Suite struct TokenEventReaderTests {
  static let path = TokenConfig.defaultPath
  static let fixtures = ["full", "kotlin-only", "minimal", "plain", "swift-only", "themed"]

  /// A config with every form the event reader reads itself: docs and notes
  /// (folded, literal, quoted, blank), one value or light and dark with and
  /// without alphas, aliases, fonts with every axis and without a text style,
  /// groups with and without a heading, and the sections it leaves to nodes.
  static func sample(colours: Int = 40, fonts: Int = 12) -> String {
    var out = ["version: 1", "swift:", "  output: ios/Generated", "  engine: DuetTheming", "  theme: MainTheme",
               "kotlin:", "  output: kmp/Generated", "  package: dev.example.theming",
               "  engine: dev.modaal.duet.services.theming", "  palette: MainPalette", "colors:"]
    for n in 0..<colours {
      if n % 10 == 0 { out += n % 20 == 0 ? ["  - group: Group \(n)", "    tokens:"] : ["  - tokens:"] }
      out.append("      - name: color\(n)")
      switch n % 6 {
      case 0: out += ["        doc: >-", "          Colour \(n), with a doc comment long enough to wrap past the", "          eightieth column."]
      case 1: out += ["        note: \"A note */ with /* markers and a \\\\ backslash.\""]
      case 2: out += ["        doc: |", "          First paragraph.", "", "          Second one."]
      case 3: out += ["        doc: '   '"]
      default: break
      }
      let hex = String(format: "#%06X", (n * 2_654_435_761) & 0xFF_FFFF)
      switch n % 5 {
      case 0: out += ["        value: \"\(hex)\"", "        alpha: 0.3"]
      case 1: out += ["        value: '\(hex)'"]
      case 2: out += ["        light: \"\(hex)\"", "        dark: \"{color\(n - 1)}\""]
      case 3: out += ["        light: \"\(hex)\"", "        dark: \"#0A0B0C\"", "        lightAlpha: 0.12", "        darkAlpha: 1"]
      default: out += ["        value: \"{color0}\""]
      }
    }
    out.append("fonts:")
    let styles = TextStyles.all
    for n in 0..<fonts {
      if n % 6 == 0 { out += ["  - group: Type \(n)", "    tokens:"] }
      out += ["      - name: font\(n)", "        family: \(["serif", "sans", "mono"][n % 3])", "        weight: \(100 * (1 + n % 9))",
              "        size: \(10 + n)", "        lineHeight: \(14.5 + Double(n))"]
      if n % 2 == 0 { out.append("        tracking: -0.01") }
      if n % 3 == 0 { out += ["        opticalSize: 144", "        softness: 50", "        width: 87.5"] }
      out += ["        swift:", "          textStyle: \(styles[n % styles.count])"]
    }
    out += ["gradients:", "  - name: sunrise", "    stops: [\"#FF5F6D\", \"#FFC371\"]",
            "  - name: dusk", "    light: [\"#A1C4FD\", \"#C2E9FB\"]", "    dark: [\"#0F2027\", \"#203A43\"]",
            "spacing:", "  x1: 4", "  x2: 8", "radius:", "  card: 12"]
    return out.joined(separator: "\n") + "\n"
  }

  static func inputs() throws -> [String] {
    try fixtures.map(TokenFixtures.configText) + [sample()]
  }

  /// Values that break a token in every way the checked path names.
  static let hostileValues = [
    "~", "\"\"", "''", "null", "\"#12345\"", "\"#GGGGGG\"", "#FFFFFF", "\"{missing}\"", "\"{color1}\"", "{color1}",
    "1.5", "-0.1", "0", "1e3", ".inf", "450", "100", "\"200\"", "[1, 2]", "{a: b}", "Color", "9x", "largeTitle",
    "unknownStyle", "\"line\\nbreak\"", "&anchor x", "*anchor", "!!str 5", "é", "\"K\u{212A}\"",
  ]

  /// A line-level change a person could make: a value swapped for a hostile
  /// one, a line dropped or repeated, a key renamed.
  static func edit(_ text: String, random: inout SeededRandom) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for _ in 0...random.below(2) {
      let index = random.below(lines.count)
      switch random.below(4) {
      case 0:
        if let colon = lines[index].range(of: ": ") {
          lines[index] = String(lines[index][..<colon.upperBound]) + random.pick(hostileValues)
        }
      case 1: lines.remove(at: index)
      case 2: lines.insert(lines[index], at: index)
      default:
        let keys = ["name", "doc", "note", "light", "dark", "value", "alpha", "lightAlpha", "family", "weight", "size",
                    "swift", "textStyle", "group", "tokens", "colour", "colors", "fonts", "version"]
        if let colon = lines[index].firstIndex(of: ":") {
          let indent = lines[index].prefix { $0 == " " || $0 == "-" }
          lines[index] = indent + random.pick(keys) + lines[index][colon...]
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The event reader's answer is the checked path's, and the loader's result
  /// (model, or diagnostics in order) is the checked path's, for one input.
  /// True when the event reader answered.
  @discardableResult
  static func expectSame(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
    let checked = Result { () throws(TokenConfigError) in try TokenConfigLoader.parseChecked(text, path: path) }
    let loaded = Result { () throws(TokenConfigError) in try TokenConfigLoader.parse(text, path: path) }
    let events = TokenConfigLoader.readByEvents(Data(text.utf8), path: path, root: nil, themeTest: nil)
    switch (checked, loaded) {
    case (.success(let a), .success(let b)):
      #expect(a == b, "models differ for:\n\(text)", sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
      #expect(a.diagnostics == b.diagnostics, "diagnostics differ for:\n\(text)", sourceLocation: sourceLocation)
    default:
      Issue.record("one path failed, the other did not, for:\n\(text)", sourceLocation: sourceLocation)
    }
    if let events {
      #expect((try? checked.get()) == events, "the event reader answered where the checked path differs:\n\(text)", sourceLocation: sourceLocation)
    }
    return events != nil
  }

  /// Every fixture and the sample read the same both ways, and the event reader
  /// reads the sample and the fixtures without aliases of YAML's own.
  @Test func fixturesReadTheSame() throws {
    for text in try Self.inputs() {
      #expect(Self.expectSame(text), "the event reader gave up on a valid config:\n\(text.prefix(400))")
    }
  }

  /// Seeded line edits of the fixtures and the sample: the same model or the
  /// same diagnostics, and the event reader answers for some and gives up on others.
  @Test func editedConfigsReadTheSame() throws {
    var random = SeededRandom(seed: 3_131)
    var answered = 0, cases = 0
    for text in try Self.inputs() {
      for _ in 0..<150 {
        cases += 1
        if Self.expectSame(Self.edit(text, random: &random)) { answered += 1 }
      }
    }
    #expect(answered > cases / 20 && answered < cases, "answered \(answered) of \(cases)")
  }

  /// Byte-level mutations (flips, cuts, deep nesting, hostile splices) from the
  /// fuzz tests' mutator: the same model or the same diagnostics, never a trap.
  @Test func mutatedConfigsReadTheSame() throws {
    var mutator = SeededMutator(seed: 31)
    for text in try Self.inputs() {
      for _ in 0..<150 {
        let bytes = mutator.mutate(Array(text.utf8))
        // The loader takes text; bytes that are not UTF-8 are the file loader's (TextBytes) case.
        guard let mutated = String(validating: bytes, as: UTF8.self) else { continue }
        Self.expectSame(mutated)
      }
    }
  }

  /// The event reader's key lists are the checked reader's, in the same order.
  @Test func keyListsMatch() {
    #expect(TokenEventReader.colorKeys.map { "\($0)" } == TokenConfigLoader.colorKeys)
    #expect(TokenEventReader.fontKeys.map { "\($0)" } == TokenConfigLoader.fontKeys)
  }

  /// A file on disk goes through the event reader too, and a broken one keeps
  /// its diagnostics from the checked path, with the file's name and position.
  @Test func loadFromDiskKeepsDiagnostics() throws {
    let tree = FileManager.default.temporaryDirectory.appendingPathComponent("duet-events-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: tree) }
    try FileManager.default.createDirectory(at: tree.appendingPathComponent("parity"), withIntermediateDirectories: true)
    let url = tree.appendingPathComponent(Self.path)
    let text = Self.sample()
    try Data(text.utf8).write(to: url)
    #expect(try TokenConfigLoader.load(root: tree) == TokenConfigLoader.parseChecked(text, path: Self.path))
    let broken = text.replacingOccurrences(of: "        alpha: 0.3\n", with: "        alpha: 1.3\n")
    try Data(broken.utf8).write(to: url)
    #expect(TokenConfigLoader.readByEvents(Data(broken.utf8), path: Self.path, root: tree, themeTest: nil) == nil)
    let diagnostics: [Diagnostic]
    do {
      _ = try TokenConfigLoader.load(root: tree)
      diagnostics = []
    } catch {
      diagnostics = error.diagnostics
    }
    #expect(diagnostics.first?.description.hasPrefix("parity/design-tokens.yaml:") == true)
    #expect(diagnostics.first?.message.contains("'alpha' must be a number from 0 to 1, got \"1.3\"") == true)
  }
}
