import Foundation
@testable import DuetProcess
import Testing

/// The two rules of issue 27 that the source tree can show: tree text reaches
/// an output only through the one escaping function of its language, and
/// files are replaced only by the one writer. Like `LayerTests` for imports,
/// these read `Sources/` and fail on a writer that builds such text, or
/// replaces a file, another way; a new duet-owned value that is safe as it is
/// goes on the list here, with its reason.
struct EscapingRuleTests {
  static let sources = LayerTests.sources

  /// The `\(…)` interpolations of `line`, each expression as written.
  static func interpolations(_ line: Substring) -> [String] {
    var result: [String] = []
    let scalars = Array(line.unicodeScalars)
    var index = 0
    while index + 1 < scalars.count {
      guard scalars[index] == "\\", scalars[index + 1] == "(" else { index += 1; continue }
      var depth = 1
      var end = index + 2
      while end < scalars.count && depth > 0 {
        if scalars[end] == "(" { depth += 1 }
        if scalars[end] == ")" { depth -= 1 }
        end += 1
      }
      result.append(String(String.UnicodeScalarView(scalars[(index + 2)..<max(index + 2, end - 1)])))
      index = end
    }
    return result
  }

  /// Lines of every Swift file under `folder` (relative to `Sources/`), with their file.
  static func lines(under folder: String, files: (String) -> Bool = { _ in true }) throws -> [(file: String, line: Substring)] {
    let base = sources.appendingPathComponent(folder)
    let names = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
    var result: [(String, Substring)] = []
    for name in names.sorted() where name.hasSuffix(".swift") && files(name) {
      let text = try String(contentsOf: base.appendingPathComponent(name), encoding: .utf8)
      for line in text.split(separator: "\n") { result.append(("\(folder)/\(name)", line)) }
    }
    return result
  }

  /// The token files are built of `SourceLine`s (issue 42, item 4): the two
  /// writers take no String for a line, so text from the config is escaped on
  /// its way in, as code unless a context says comment, doc or literal; and
  /// no emitter interpolates a String that `SourceLanguage` escaped already
  /// (it would be escaped twice).
  @Test func tokenWritersTakeOnlySourceLines() throws {
    var problems: [String] = []
    let takesString = try Regex(#"func (add|write|keep|comment|kdoc)\([^)]*: (String|\[String\])[,)]"#)
    for (file, line) in try Self.lines(under: "DuetTokens/Tokens", files: { $0 == "CommentText.swift" || $0 == "EngineProse.swift" }) {
      let code = line.trimmingCharacters(in: .whitespaces)
      guard code.contains(takesString) else { continue }
      // `comment(_ text:` and `kdoc(_ text:` take tree text to escape, `write(code:)` an identifier
      // to escape as code, and `keep` the engine's own lines.
      if code.contains("(_ text: String") || code.contains("keep(_ prose: [String])") || code.contains("write(code name: String)") { continue }
      problems.append("\(file): a writer takes a String: \(code)")
    }
    for (file, line) in try Self.lines(under: "DuetTokens") where line.contains("\\(SourceLanguage.") || line.contains(".comment(heading)") {
      problems.append("\(file): text escaped by SourceLanguage interpolated into a SourceLine: \(line.trimmingCharacters(in: .whitespaces))")
    }
    #expect(problems == [])
  }

  /// The YAML writers (the two workflows and init's manifest) build their
  /// documents of `YAML` (a shell command of `ShellText`, which goes into YAML
  /// escaped), so the compiler keeps every value escaped. What is left: they
  /// hold no YAML in a String, and turn `YAML` or `ShellText` into a String only
  /// where the document leaves (its bytes, a returned text), to measure a line,
  /// or to cut an escaped comment into lines (put back through `.line`).
  @Test func yamlWritersKeepNoYAMLInAString() throws {
    let leaving = [".text.utf8", ".text.count", "return text.text", "YAMLText.comment(text).text"]
    var problems: [String] = []
    let writers = try Self.lines(under: "DuetCI/Workflow") + Self.lines(under: "DuetAdopt/Adopt", files: { $0 == "ManifestWriter.swift" })
    for (file, line) in writers {
      let code = line.trimmingCharacters(in: .whitespaces)
      if code.hasPrefix("//") { continue }
      for held in ["var y: [String]", "var y = [\"", "var text = \"", "var text: String", ".escape("] where code.contains(held) {
        problems.append("\(file): YAML held in a String, not YAML: \(code)")
      }
      let rest = leaving.reduce(code) { $0.replacingOccurrences(of: $1, with: "") }
      if rest.contains(".text") { problems.append("\(file): YAML or shell text made a String inside the writer: \(code)") }
    }
    #expect(problems == [])
  }

  /// The step summary is built of `Markdown` (issue 42, item 4), so every
  /// value goes in escaped for its place (a cell, inline HTML, a code block).
  /// What is left: `StepSummary` holds no Markdown in a String, calls no
  /// escaping of its own, and makes its `Markdown` a String only where the
  /// summary leaves (`markdown`'s return) or to measure a part; the only other
  /// text it reads is a `TerminalLine`'s, which goes in to be escaped again.
  @Test func stepSummaryKeepsNoMarkdownInAString() throws {
    let leaving = [".text.utf8.count", "return out.text", "verdict.lastLine.text", "flaky.text"]
    var problems: [String] = []
    for (file, line) in try Self.lines(under: "DuetRunReports/Reports", files: { $0 == "StepSummary.swift" }) {
      let code = line.trimmingCharacters(in: .whitespaces)
      if code.hasPrefix("//") { continue }
      for held in ["var out = \"", ": String = \"", ": [String] = [\"", ".escape(", "HTMLText.", "ControlText.", "replacingOccurrences(of: \"|\""] where code.contains(held) {
        problems.append("\(file): Markdown held in a String or escaped by hand: \(code)")
      }
      if code.contains("-> String") && !code.hasPrefix("package static func markdown(") && !code.hasPrefix("static func markdown(") {
        problems.append("\(file): a part of the summary made as a String: \(code)")
      }
      let rest = leaving.reduce(code) { $0.replacingOccurrences(of: $1, with: "") }
      if rest.contains(".text") { problems.append("\(file): Markdown made a String inside the summary: \(code)") }
    }
    #expect(problems == [])
  }

  /// The hook script is `ShellText` from end to end: every piece of it is
  /// declared as such, so duet's path and the root go in as quoted words, and
  /// it becomes a String only when returned.
  @Test func hookScriptIsShellText() throws {
    let text = try String(contentsOf: Self.sources.appendingPathComponent("DuetHooks/Hooks/GitHook.swift"), encoding: .utf8)
    // Found whatever their access (issue 54: internal unless another target uses them).
    let start = try #require(text.range(of: "static func script("))
    let end = try #require(text.range(of: "static func install(", range: start.upperBound..<text.endIndex))
    let body = text[start.upperBound..<end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("///") }
    #expect(body.first?.hasSuffix("-> String {") == true)
    #expect(body.filter { $0.hasPrefix("let ") || $0.hasPrefix("var ") }.allSatisfy { $0.contains(": ShellText = ") }, "\(body)")
    #expect(body.filter { $0.contains(".text") || $0.contains("ShellWord.") || $0.contains("String(") } == ["return script.text"])
  }

  /// `Escaped` text is made only by its language's escaping, literals and
  /// joins: its text is set only inside Escaped.swift, and its initialisers
  /// are these four, so a String made at run time cannot become text of an
  /// output language anywhere without going through the escaping.
  @Test func escapedTextHasNoOtherInitialiser() throws {
    let text = try String(contentsOf: Self.sources.appendingPathComponent("DuetSupport/Support/Escaped.swift"), encoding: .utf8)
    // Read whatever their access (issue 54: `package` only where another target uses them).
    let lines = text.split(separator: "\n").map { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return trimmed.hasPrefix("package ") ? String(trimmed.dropFirst("package ".count)) : trimmed
    }
    #expect(lines.filter { $0.hasPrefix("init(") || $0.contains(" init(") }.map { String($0.prefix(while: { $0 != ")" })) } == [
      "init(escaping text: String, in context: Language.Context = Language.defaultContext",
      "init(stringLiteral literal: StaticString",
      "init(stringInterpolation: StringInterpolation",
      "init(literalCapacity: Int, interpolationCount: Int",
    ])
    #expect(lines.filter { $0.contains("var text") } == ["private(set) var text: String", "fileprivate var text = \"\""])
  }

  /// The HTML pages keep no markup in a String: they are built of `HTML`.
  @Test func pagesKeepNoMarkupInAString() throws {
    var problems: [String] = []
    for (file, line) in try Self.lines(under: "DuetPages/Pages", files: { $0 == "TimingsPage.swift" || $0 == "ReportPage.swift" || $0 == "PageStyle.swift" }) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      for held in ["var html = \"", "var svg = \"", "var body = \"", "var css = \"", ": String = \"<"] where trimmed.contains(held) {
        problems.append("\(file): markup held in a String, not HTML: \(trimmed)")
      }
    }
    #expect(problems == [])
  }

  /// What duet prints is a `TerminalLine` (issue 42, item 4): the compiler
  /// keeps tree text escaped in it, so what is left to check is that the
  /// writers (the console, a printout, the layouts) take only that type, that
  /// the console keeps its last guard, and
  /// that text written as it is (`raw`) comes only from what duet generates
  /// whole: a script or graph, and JSON, its controls escaped.
  @Test func printedTextIsEscaped() throws {
    func source(_ path: String) throws -> String {
      try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
    }
    let console = try source("DuetApp/Call/Console.swift")
    // The console takes lines as `TerminalLine`; its String writers are its own, behind the last guard.
    #expect(console.contains("private func out(_ text: String) { write(ControlText.terminal(text) + \"\\n\", to: STDOUT_FILENO) }"))
    #expect(console.contains("private func err(_ text: String) { write(ControlText.terminal(text) + \"\\n\", to: STDERR_FILENO) }"))
    #expect(console.contains("func out(_ line: TerminalLine, paint code: String? = nil)") && console.contains("func err(_ line: TerminalLine)"))
    let printout = try source("DuetApp/Call/Printout.swift")
    for taken in ["case out(TerminalLine, paint: String?)", "case err(TerminalLine)", "func out(_ text: TerminalLine, paint: String? = nil)",
                  "func err(_ text: TerminalLine)", "func line(_ text: TerminalLine)", "func errorLine(_ text: TerminalLine)",
                  "func json(_ text: String) { raw(ReportJSON.escapingSeparators(text) + \"\\n\") }"] {
      #expect(printout.contains(taken), "Printout: \(taken)")
    }
    #expect(try source("DuetOutput/TextTable.swift").contains("var rows: [[TerminalLine]]"))
    #expect(try source("DuetOutput/HangingList.swift").contains("static func lines(_ rows: [(TerminalLine, TerminalLine)]"))
    var raw: Set<String> = []
    for (file, line) in try Self.lines(under: "DuetApp") where line.contains(".raw(") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
      raw.insert(file)
    }
    // Each file that writes raw text, and why what it writes needs no escape.
    let generatedWhole = [
      "DuetApp/Call/Printout.swift": "a printout's raw item, which JSON (its controls escaped) and the graph fill",
      "DuetApp/Tree/Graph.swift": "a DOT or Mermaid graph duet writes whole",
      "DuetApp/Call/Console.swift": "the console's own raw writer, what a printout's raw item reaches",
      "DuetApp/Call/ProgressPrinter.swift": "the status line (counts and lane names, which the manifest keeps to letters, digits, '.', '_' and '-') and the terminal's erase codes",
      "DuetApp/Commands/Completion.swift": "a completion script duet generates whole",
      "DuetApp/Commands/Man.swift": "the man page duet generates whole",
    ]
    #expect(raw == Set(generatedWhole.keys), "text written raw: \(raw.sorted())")
  }

  /// Files are created, truncated or renamed over only by `AtomicFile`; the
  /// other places that rename or create are listed with why they may.
  @Test func onlyTheWriterReplacesFiles() throws {
    let allowed: [String: String] = [
      "DuetSupport/Support/AtomicFile.swift": "the one writer",
      "DuetProcess/LogSink.swift": "a new log file in a run's new folder under .duet/logs",
      "DuetHooks/Hooks/GitHook.swift": "moves a foreign hook aside as it is, and back",
      "DuetHooks/Hooks/PushedCommit.swift": "moves a hook run's log folders into the tree's .duet/logs",
      "DuetHistory/History/HistoryRecorder.swift": "moves a corrupt store aside",
      "DuetCache/Store/ContentStore.swift": "renames a blob checked against its digest into .duet/cache, and a restored output (written beside its place) over a regular file or nothing, as AtomicFile does",
      "DuetSandbox/Sandbox/SandboxCollection.swift": "moves a sandboxed lane's declared outputs and reports from its scratch tree under .duet/sandbox to their places, through the path guard",
      "DuetProcess/ChildProcess.swift": "opens the status file a sandboxed lane's launcher writes (created or emptied, 0600) in its scratch folder under .duet/sandbox, read only to see that the sandbox started",
      "DuetSupport/Support/StoreDisk.swift": "declares the store's disk calls (issue 54, item 10): the content store's and the history store's renames, named",
      "DuetSupport/Support/SystemDisk.swift": "the system calls behind StoreDisk, moved there from ContentStore (renameat, O_CREAT | O_EXCL beside a restored output) and HistoryRecorder (a corrupt store moved aside)",
      "DuetCache/Remote/CurlTransfer.swift": "streams a download into the file the store names for it, which the store checks by digest before using",
    ]
    let calls = ["rename(", "O_CREAT", "O_TRUNC", "moveItem(", ".write(to:", "write(toFile:", "createFile(atPath:", "replaceItem"]
    var problems: [String] = []
    for folder in LayerTests.rank.keys.sorted() {
      for (file, line) in try Self.lines(under: folder) where allowed[file] == nil {
        let code = line.trimmingCharacters(in: .whitespaces)
        if code.hasPrefix("//") { continue }
        // `removeItem(` deletes; OrderedJSON's `write(to: &out` appends to a string.
        let checked = code.replacingOccurrences(of: "removeItem(", with: "").replacingOccurrences(of: "write(to: &", with: "")
        for call in calls where checked.contains(call) { problems.append("\(file): \(call) outside AtomicFile: \(code)") }
      }
    }
    #expect(problems == [])
  }
}
