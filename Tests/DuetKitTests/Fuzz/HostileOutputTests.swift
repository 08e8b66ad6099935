import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import DuetFuzzSupport
@testable import DuetApp
@testable import DuetCI
@testable import DuetHooks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetOutput
@testable import DuetSupport
@testable import DuetRunReports

/// Runs `program` (found on `PATH`) with `arguments`; its status and merged output.
private func run(_ program: String, _ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [program] + arguments
  if let folder { process.currentDirectoryURL = folder }
  if let environment { process.environment = environment }
  process.standardInput = FileHandle.nullDevice
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A scratch folder, removed afterwards.
private final class Scratch {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-hostile-\(UUID().uuidString)")
  init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
  deinit { try? FileManager.default.removeItem(at: url) }
  func write(_ name: String, _ text: String) throws -> URL {
    let file = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    return file
  }
}

/// The seeded hostile strings of one output, `DUET_FUZZ_SEED` choosing the seed.
private func hostile(_ kind: UInt64, count: Int) -> [String] {
  var strings = HostileStrings(seed: (UInt64(ProcessInfo.processInfo.environment["DUET_FUZZ_SEED"] ?? "") ?? 27) &* 0x9E37 ^ (kind << 32))
  // Every piece alone first, then mixes of them.
  return HostileStrings.pieces + (0..<count).map { _ in strings.next() }
}

/// Hostile strings in every tree-controlled field that reaches an output: each
/// output still parses as its language, with the text intact (issue 27).
@Suite("Fuzz: hostile strings in everything duet writes")
struct HostileOutputTests {
  /// Generated Swift and Kotlin with hostile docs, notes, headings and config
  /// paths: no raw line break or control, KDoc holds no comment marker but its
  /// own, every doc decodes back from its comment lines, and `swiftc -parse`
  /// accepts every Swift file (in one call).
  @Test func tokenFilesParse() throws {
    let texts = hostile(1, count: 120)
    let scratch = try Scratch()
    var swiftFiles: [String] = []
    for (index, chunk) in stride(from: 0, to: texts.count, by: 12).map({ Array(texts[$0..<min($0 + 12, texts.count)]) }).enumerated() {
      let colors = chunk.enumerated().map { ColorToken(name: "c\($0.offset)", doc: $0.element, note: $0.element, values: .single(ColorValue(RGB(0x102030)))) }
      let scale = chunk.enumerated().map { ScaleToken(name: "s\($0.offset)", doc: $0.element, value: Double($0.offset + 1)) }
      for style in [TokenStyle.engine, .swiftui] {
        let config = TokenConfig(
          path: "parity/\(chunk[0]).yaml",
          swift: SwiftTarget(output: "ios", style: style, engine: style == .engine ? "DuetTheming" : "", theme: style == .engine ? "MainTheme" : ""),
          kotlin: KotlinTarget(output: "kt", package: "p", style: style == .engine ? .engine : .compose, engine: style == .engine ? "e" : "", palette: style == .engine ? "P" : ""),
          colorGroups: [TokenGroup(heading: chunk[0], tokens: colors)], spacing: scale)
        for file in TokenPlan(config).files {
          let raw = file.contents.unicodeScalars.filter { SourceLanguage.needsEscape($0) }
          #expect(raw.isEmpty, "\(file.path): raw \(raw.map(\.value)) from \(chunk.map(\.debugDescription))")
          if file.path.hasSuffix(".kt") {
            for line in file.contents.split(separator: "\n") {
              let trimmed = line.drop { $0 == " " }
              if trimmed == "/**" || trimmed == "*/" || (trimmed.hasPrefix("/**") && trimmed.hasSuffix("*/")) { continue }
              #expect(!line.contains("*/") && !line.contains("/*"), "\(file.path): \(line)")
            }
          } else {
            let name = "\(index)-\(style)-\((file.path as NSString).lastPathComponent)"
            swiftFiles.append(try scratch.write(name, file.contents).path)
          }
        }
      }
    }
    for text in texts {
      for language in [SourceLanguage.swift, .kotlin] {
        var out = SourceText()
        out.comment(text, prefix: "/// ", in: language)
        let bodies = out.text.split(separator: "\n").map { $0.hasPrefix("/// ") ? String($0.dropFirst(4)) : "" }
        let decoded = SourceLanguage.decodeComment(bodies.filter { !$0.isEmpty }.joined(separator: " "))
        // The wrapper lays words out anew: spaces, tabs and `\n` only separate them.
        func words(_ text: String) -> String {
          text.unicodeScalars.split { $0 == " " || $0 == "\n" || $0 == "\t" }.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
        }
        #expect(words(decoded) == words(text), "\(text.debugDescription) → \(out.text.debugDescription)")
      }
    }
    let parse = try run("swiftc", ["-parse"] + swiftFiles)
    #expect(parse.status == 0, "\(parse.output.prefix(4000))")
  }

  /// YAML scalars and comments from hostile strings read back equal through
  /// libyaml (duet's reader) and PyYAML (a YAML 1.1 reader), in one document.
  @Test func yamlReadsBack() throws {
    let texts = hostile(2, count: 200)
    var document = ""
    for (index, text) in texts.enumerated() {
      document += "# \(YAMLText.comment(text))\nk\(index): \(YAMLText.scalar(text))\n"
    }
    let node = try YAMLParser.parse(document, file: "hostile.yaml")
    #expect(node.mapping?.count == texts.count)
    for (index, text) in texts.enumerated() {
      #expect(node["k\(index)"]?.scalar == text, "\(text.debugDescription) → \(YAMLText.scalar(text).text.debugDescription)")
    }
    let scratch = try Scratch()
    let file = try scratch.write("hostile.yaml", document)
    let script = """
      import sys, json
      try:
          import yaml
      except ImportError:
          print("PyYAML is missing: pip install pyyaml"); sys.exit(3)
      data = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
      print(json.dumps([[k, v] for k, v in data.items()]))
      """
    let result = try run("python3", ["-c", script, file.path])
    #expect(result.status == 0, "python3 with PyYAML (pip install pyyaml): \(result.output.prefix(2000))")
    guard result.status == 0 else { return }
    let pairs = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[Any]])
    #expect(pairs.count == texts.count)
    for (index, pair) in pairs.enumerated() where index < texts.count {
      #expect(pair.first as? String == "k\(index)")
      #expect(pair.last as? String == texts[index], "PyYAML: \(texts[index].debugDescription) → \(YAMLText.scalar(texts[index]).text.debugDescription)")
    }
  }

  /// Manifests of lane names YAML 1.1 or GitLab read as something else give
  /// GitHub and GitLab files that libyaml and PyYAML read with one string key
  /// per job, and that pass both published schemas (one check-jsonschema call each).
  @Test func workflowsReadBack() throws {
    let names = ["null", "True", "on", "yes", "Y", "n", "off", "No", "stages", "variables", "image", "include", "default", "workflow", "pages", "a.b", "x-1", "1st", "duet-history", "tokens"]
    var random = SeededRandom(seed: 27)
    let scratch = try Scratch()
    var github: [URL] = [], gitlab: [URL] = []
    for number in 0..<8 {
      var chosen: [String] = []
      for _ in 0..<(2 + random.below(8)) {
        let name = random.pick(names)
        if !chosen.contains(name) { chosen.append(name) }
      }
      let lanes = chosen.enumerated().map { CIFixtures.lane($0.element, needs: $0.offset > 0 ? [chosen[random.below($0.offset)]] : []) }
      let manifest = CIFixtures.manifest(lanes)
      let ids = try GitHubWorkflow.jobIDs(for: chosen)
      var githubOptions = GitHubWorkflow.Options(duetVersion: "1.0.0")
      githubOptions.jobs.oneJobPerLane = true
      var gitlabOptions = GitLabPipeline.Options(duetVersion: "1.0.0")
      gitlabOptions.jobs.oneJobPerLane = true
      let githubText = try GitHubWorkflow.render(manifest, options: githubOptions)
      let gitlabText = try GitLabPipeline.render(manifest, options: gitlabOptions)
      #expect(try YAMLParser.parse(githubText, file: "g.yml")["jobs"]?.mapping?.compactMap(\.key.scalar) == ["duet-build-linux"] + ids + ["duet-history"])
      #expect(try YAMLParser.parse(gitlabText, file: "l.yml").mapping?.count == ids.count + 5)
      github.append(try scratch.write("github-\(number).yml", githubText))
      gitlab.append(try scratch.write("gitlab-\(number).yml", gitlabText))
    }
    let script = """
      import sys
      try:
          import yaml
      except ImportError:
          print("PyYAML is missing: pip install pyyaml"); sys.exit(3)
      for path in sys.argv[1:]:
          data = yaml.safe_load(open(path, encoding="utf-8"))
          keys = list((data.get("jobs") or data).keys())
          bad = [k for k in keys if not isinstance(k, str)]
          if bad or len(set(keys)) != len(keys): print(path, bad); sys.exit(1)
      """
    let result = try run("python3", ["-c", script] + (github + gitlab).map(\.path))
    #expect(result.status == 0, "python3 with PyYAML (pip install pyyaml): \(result.output)")
    for (files, schema) in [(github, "vendor.github-workflows"), (gitlab, "vendor.gitlab-ci")] {
      let check = try run("check-jsonschema", ["--builtin-schema", schema] + files.map(\.path))
      #expect(check.status == 0, "check-jsonschema (pip install check-jsonschema) \(schema): \(check.output.prefix(3000))")
    }
  }

  /// Hook scripts with hostile duet paths and roots parse (`sh -n`, one call
  /// for all), and a few run where duet is missing without running anything
  /// the path holds.
  @Test func hookScriptsParse() throws {
    let texts = hostile(3, count: 60).filter { !$0.contains("\0") }
    let scratch = try Scratch()
    var files: [String] = []
    for (index, text) in texts.enumerated() {
      let placement = [GitHook.Placement.gitFolder, .workTree, .outside][index % 3]
      let script = GitHook.script(index % 2 == 0 ? .prePush : .preCommit, duetPath: "/opt/\(text)/duet", rootFromTop: text.isEmpty ? "." : text, placement: placement)
      files.append(try scratch.write("hooks/\(index).sh", script).path)
    }
    let check = try run("sh", ["-c", "for f; do sh -n \"$f\" || echo \"BAD $f\"; done", "sh"] + files)
    #expect(check.status == 0 && !check.output.contains("BAD"), "\(check.output.prefix(3000))")
    #expect(try run("git", ["init", "-q", "."], in: scratch.url).status == 0)
    for file in files.prefix(24) {
      _ = try run("sh", [file], in: scratch.url, environment: ["PATH": "/usr/bin:/bin", "HOME": scratch.url.path])
    }
    #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("PWNED").path))
  }

  /// JUnit XML with hostile reasons, notes and log lines parses with an XML
  /// parser; GitHub workflow commands stay one line.
  @Test func junitAndAnnotationsParse() throws {
    let texts = hostile(4, count: 80)
    let records = texts.enumerated().map { index, text -> LaneVerdict in
      index % 2 == 0
        ? CIFixtures.record(index, "lane\(index)", .skipped, reason: text, attempts: [])
        : CIFixtures.record(index, "lane\(index)", .fail, attempts: [CIFixtures.attempt(1, .fail, exit: 1, log: ".duet/logs/r/x.log", lines: [text, "error: " + text])])
    }
    let outcome = RunVerdict(lanes: records, interrupted: false, duration: 1, changedTrackedFiles: texts.prefix(12).map { $0 })
    let xml = JUnitReport.xml(outcome)
    #expect(throws: Never.self, "\(xml.prefix(2000))") { _ = try XMLDocument(data: Data(xml.utf8), options: []) }
    for text in texts {
      let command = GitHubAnnotations.command("error", properties: [("title", text)], message: text)
      #expect(!command.contains("\n") && !command.contains("\r"), "\(command.debugDescription)")
    }
  }

  /// Every line duet prints that holds tree text is one line free of raw
  /// controls: shown text, table cells, hanging lists, progress lines, failure
  /// headings and the verdict; the console's last guard keeps only newline,
  /// tab and colour sequences.
  @Test func printedLinesHoldNoControls() throws {
    let texts = hostile(5, count: 200)
    func clean(_ line: String) -> Bool { !line.unicodeScalars.contains { ControlText.needsEscape($0) } }
    for text in texts {
      #expect(clean(ControlText.shown(text)))
      let table = TextTable(header: ["a", "b"], rows: [[TerminalLine(escaping: text), "\(text)"]]).lines(maxWidth: 1_000).map(\.text)
      #expect(table.count == 2 && table.allSatisfy(clean), "\(table)")
      #expect(HangingList.lines([("\(text)", "\(text)")]).map(\.text).allSatisfy(clean))
      let skipped = CIFixtures.record(0, "a", .skipped, reason: text, attempts: [])
      let failed = CIFixtures.record(1, "b", .fail, attempts: [CIFixtures.attempt(1, .fail, exit: 1)])
      #expect(clean(RunText.progressLine(skipped, finished: 1, total: 2).text))
      #expect(RunText.failureBlock(CIFixtures.record(2, "c", .fail, reason: text, attempts: [])).allSatisfy(clean))
      let outcome = RunVerdict(lanes: [skipped, failed], interrupted: false, duration: 1, changedTrackedFiles: [text])
      #expect(clean(outcome.lastLine.text), "\(outcome.lastLine.text.debugDescription)")
      let guarded = ControlText.terminal(text)
      let scalars = Array(guarded.unicodeScalars)
      for (index, scalar) in scalars.enumerated() where ControlText.needsEscape(scalar) && scalar != "\n" && scalar != "\t" {
        #expect(scalar == "\u{1B}" && index + 1 < scalars.count && scalars[index + 1] == "[", "\(guarded.debugDescription)")
      }
    }
  }
}
