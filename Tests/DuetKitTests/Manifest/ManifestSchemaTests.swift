import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("The manifest's JSON Schema")
struct ManifestSchemaTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let schemaText = ManifestSchema.text(builtins: BuiltinSet.standard.vocabulary)

  /// Loader diagnostics a schema cannot express: names that must exist elsewhere in the file, and cycles.
  static let crossReferenceErrors = ["needs unknown lane", "needs form a cycle", "duplicate lane name", "names unknown pool", "is declared twice", "its outputs overlap those of lane",
                                     "can match one file, and the two lanes may run at once",
                                     // `site` and `site/` are one path, which no schema can tell (it has `uniqueItems` for the rest).
                                     "' twice (first at "]

  /// Errors a schema cannot express: references between lanes, and the 7-day
  /// bound on a timeout written as a well-formed duration string (a number is bounded).
  static func onlyTheLoaderCanSee(_ error: String) -> Bool {
    if crossReferenceErrors.contains(where: { error.contains($0) }) { return true }
    guard error.contains("at most 7d, got \""), let start = error.range(of: "at most 7d, got \"") else { return false }
    let value = String(error[start.upperBound...].dropLast())
    return value.range(of: ManifestSchema.durationPattern, options: .regularExpression) != nil
  }

  /// The loader's verdict: nil when the manifest loads, else its messages.
  static func loaderErrors(_ node: YAMLNode) -> [String]? {
    do {
      _ = try ManifestLoader.parse(node, path: "lanes/manifest.yaml", builtins: BuiltinSet.standard.vocabulary)
      return nil
    } catch {
      return error.diagnostics.map(\.message)
    }
  }

  func validator() throws -> SchemaValidator { try SchemaValidator(schemaText: Self.schemaText) }

  /// `docs/manifest.schema.json` is exactly what `duet schema manifest` prints;
  /// `DUET_RECORD=1` rewrites it (and still fails, so a record run is never green).
  @Test func documentIsCurrent() throws {
    let file = Self.repository.appendingPathComponent(ManifestSchema.documentPath)
    let current = try? String(contentsOf: file, encoding: .utf8)
    if current != Self.schemaText && ProcessInfo.processInfo.environment["DUET_RECORD"] == "1" {
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Self.schemaText.write(to: file, atomically: true, encoding: .utf8)
      Issue.record("rewrote \(ManifestSchema.documentPath); run the tests again without DUET_RECORD")
      return
    }
    #expect(current == Self.schemaText, "\(ManifestSchema.documentPath) is stale; regenerate it: swift run duet schema manifest > \(ManifestSchema.documentPath)")
  }

  /// Every manifest of the repository (this one's, the examples', the fixtures')
  /// and every manifest the test suite writes gets the schema's verdict equal to
  /// the loader's, except for the cross-references only the loader can check.
  @Test func agreesWithTheLoaderOnEveryExampleManifest() throws {
    let validator = try validator()
    var documents: [(String, String)] = []
    for path in ["lanes/manifest.yaml", "Examples/Foyer/lanes/manifest.yaml", "workflows/example/lanes/manifest.yaml", "Tests/Fixtures/mocks/handwritten/lanes/manifest.yaml"] {
      documents.append((path, try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)))
    }
    documents += try TestSuiteManifests.collect(under: Self.repository.appendingPathComponent("Tests"))
    #expect(documents.count > 60, "the scan of the test sources found only \(documents.count) manifests")
    var valid = 0, invalid = 0
    for (origin, text) in documents {
      guard let node = try? YAMLParser.parse(text, file: "lanes/manifest.yaml") else { continue }
      let loader = Self.loaderErrors(node)
      let schema = validator.errors(InstanceValue(node))
      let onlyCrossReferences = loader.map { errors in errors.allSatisfy(Self.onlyTheLoaderCanSee) } ?? true
      if onlyCrossReferences {
        #expect(schema.isEmpty, "\(origin): the loader accepts it (or finds only cross-reference errors: \(loader ?? [])), the schema does not: \(schema)\n\(text)")
        valid += 1
      } else {
        #expect(!schema.isEmpty, "\(origin): the loader refuses it (\(loader ?? [])), the schema accepts it\n\(text)")
        invalid += 1
      }
    }
    #expect(valid > 20 && invalid > 10, "valid \(valid), invalid \(invalid)")
  }

  /// Each key the loader knows is in the schema, and the schema knows no other.
  @Test func keysAreTheLoaders() throws {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.schemaText.utf8)) as? [String: Any])
    let properties = try #require(object["properties"] as? [String: Any])
    #expect(Set(properties.keys) == Set(ManifestLoader.topLevelKeys))
    let definitions = try #require(object["definitions"] as? [String: Any])
    let lane = try #require((definitions["lane"] as? [String: Any])?["properties"] as? [String: Any])
    #expect(Set(lane.keys) == Set(ManifestLoader.laneKeys))
    let mock = try #require((definitions["mock"] as? [String: Any])?["properties"] as? [String: Any])
    #expect(Set(mock.keys) == Set(ManifestLoader.mockKeys))
  }

  /// Hand-picked manifests: the good ones pass, and each mistake fails with the key it is about.
  @Test(arguments: [
    ("version: 1\nlanes:\n  - {name: a, sh: make}\n", nil),
    ("version: 1\npools: {gradle: 1}\nlanes:\n  - {name: a, sh: make, pool: gradle, timeout: 1h30m, retries: 2, env: {A: 1}}\n", nil),
    ("version: 1\nlanes:\n  - {name: t, run: design-tokens --check, dir: Examples/Foyer}\n", nil),
    ("version: 1\nlanes:\n  - {name: a, sh: make, timeout: 90}\n", nil),
    ("version: 2\nlanes: []\n", "$.version"),
    ("lanes: []\n", "missing version"),
    ("version: 1\nlanes:\n  - {name: a, sh: make, neds: [b]}\n", "unknown key neds"),
    ("version: 1\nlanes:\n  - {name: a}\n", "oneOf"),
    ("version: 1\nlanes:\n  - {name: a, sh: x, run: mocks}\n", "oneOf"),
    ("version: 1\nlanes:\n  - {name: a, run: mocks --chek}\n", "$.lanes[0].run"),
    ("version: 1\nlanes:\n  - {name: a, sh: x, timeout: soon}\n", "$.lanes[0].timeout"),
    ("version: 1\nlanes:\n  - {name: a, sh: x, retries: -1}\n", "$.lanes[0].retries"),
    ("version: 1\nlanes:\n  - {name: a, sh: x, dir: ../up}\n", "$.lanes[0].dir"),
    ("version: 1\nlanes:\n  - {name: -a, sh: x}\n", "$.lanes[0].name"),
    ("version: 1\npools: {gradle: 0}\nlanes: []\n", "$.pools.gradle"),
    ("version: 1\npools: {gradle: 1025}\nlanes: []\n", "$.pools.gradle"),
    ("version: 1\nmocks:\n  - {output: M.swift}\nlanes: []\n", "missing sources"),
    ("version: 1\nruns-on: {macos: macos-14, linux: [ubuntu-latest, big]}\nlanes:\n  - {name: a, sh: x, platforms: macos, env-inputs: [CI], runs-on: self-hosted}\n", nil),
    ("version: 1\nlanes:\n  - {name: a, sh: x, platforms: [windows]}\n", "$.lanes[0].platforms"),
    ("version: 1\nlanes:\n  - {name: a, sh: x, platforms: []}\n", "$.lanes[0].platforms"),
    ("version: 1\nlanes:\n  - {name: a, sh: x, env-inputs: [A=1]}\n", "$.lanes[0].env-inputs"),
    ("version: 1\nruns-on: {windows: x}\nlanes: []\n", "$.runs-on[windows]"),
    ("version: 1\nruns-on: {linux: []}\nlanes: []\n", "$.runs-on.linux"),
  ] as [(String, String?)])
  func validatesAndRejects(text: String, expected: String?) throws {
    let node = try YAMLParser.parse(text, file: "lanes/manifest.yaml")
    let errors = try validator().errors(InstanceValue(node))
    if let expected {
      #expect(errors.contains { $0.contains(expected) }, "\(errors)")
      #expect(Self.loaderErrors(node) != nil)
    } else {
      #expect(errors.isEmpty, "\(errors)")
      #expect(Self.loaderErrors(node) == nil)
    }
  }
}

/// The manifests the test suite writes, found in its Swift sources: multi-line
/// string literals and one-line ones with `\n`, that hold a top-level `lanes:` or
/// `pools:` line. Literals with interpolation are skipped (their text is not known
/// until they run).
enum TestSuiteManifests {
  static func collect(under folder: URL) throws -> [(String, String)] {
    var found: [(String, String)] = []
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    for file in files {
      let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
      var index = 0
      while index < lines.count {
        let line = lines[index]
        let origin = "\(file.lastPathComponent):\(index + 1)"
        if line.hasSuffix("\"\"\"") && line.trimmingCharacters(in: .whitespaces) != "\"\"\"" {
          var body: [String] = []
          index += 1
          while index < lines.count && !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("\"\"\"") {
            body.append(lines[index])
            index += 1
          }
          guard index < lines.count else { break }
          let indent = lines[index].prefix { $0 == " " }.count
          let text = body.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n") + "\n"
          if let unescaped = unescape(text), isManifest(unescaped) { found.append((origin, unescaped)) }
        } else {
          for literal in singleLineLiterals(line) {
            if let unescaped = unescape(literal), isManifest(unescaped) { found.append((origin, unescaped)) }
          }
        }
        index += 1
      }
    }
    return found
  }

  static func isManifest(_ text: String) -> Bool {
    text.components(separatedBy: "\n").contains { $0.hasPrefix("lanes:") || $0.hasPrefix("pools:") }
  }

  static func singleLineLiterals(_ line: String) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: "\"((?:[^\"\\\\]|\\\\.)*)\"") else { return [] }
    let range = NSRange(line.startIndex..., in: line)
    return regex.matches(in: line, range: range).compactMap { Range($0.range(at: 1), in: line).map { String(line[$0]) } }
  }

  /// Swift's escapes undone; nil for interpolation.
  static func unescape(_ text: String) -> String? {
    if text.contains("\\(") { return nil }
    var out = ""
    var escaping = false
    for character in text {
      if escaping {
        switch character {
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "\"": out.append("\"")
        case "\\": out.append("\\")
        case "0": out.append("\0")
        default: return nil
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        out.append(character)
      }
    }
    return out
  }
}
