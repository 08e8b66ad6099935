import Foundation
import Testing

/// The layers of `Sources/`, bottom up. A target may import only the Duet
/// targets of lower layers, and each C library only where its layer owns it:
/// SQLite belongs to the history store (DuetHistory), libyaml to DuetSupport and
/// the process shim to DuetProcess. SwiftPM sees the edges `Package.swift` declares; these tests
/// fail on an `import` that goes up or sideways even where a module built
/// earlier would let it compile, and on a `Package.swift` edge that does.
struct LayerTests {
  static let rank: [String: Int] = [
    "DuetSupport": 0,
    "DuetOutput": 1, "DuetProcess": 1, "DuetCache": 1,
    // Issue 56: what a sandboxed lane sees and may write, values and files; the run uses it.
    "DuetSandbox": 1,
    // Issue 54, item 8: the command line's specs, parse, man page and
    // completions need only DuetSupport, so they build beside the features,
    // not at the end after DuetApp.
    "DuetCommandLine": 1,
    // DuetTestReports (the lanes' JUnit reports) sits below DuetRun, whose run
    // loop reads an attempt's reports as the attempt ends, not beside DuetMocks.
    "DuetModel": 2, "DuetTestReports": 2,
    // Issue 54, item 2: the history store sits below the run, which opens it,
    // reads its last verdicts and records into it; the store knows the
    // outcomes it keeps (`LaneOutcome`, `RunOutcome`), not the run loop.
    "DuetHistory": 3, "DuetTokens": 3, "DuetMocks": 3,
    // The pages render the history's rows and see no run; the hooks need only
    // the history's log folders. Beside the run, not above it.
    "DuetRun": 4, "DuetPages": 4, "DuetAdopt": 4, "DuetHooks": 4,
    // The run's reports read its verdict (`RunVerdict`), so they sit above it.
    "DuetRunReports": 5, "DuetDoctor": 5, "DuetCI": 5,
    "DuetApp": 6,
    "duet": 7,
  ]
  /// C modules and the one target each may be imported from.
  static let cOwner: [String: String] = [
    "CSQLite": "DuetHistory",
    "CYAML": "DuetSupport",
    "CProcessShim": "DuetProcess",
    "CCrypto": "DuetSupport",
    "CCurl": "DuetCache",
  ]
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let sources = repository.appendingPathComponent("Sources")

  /// Why `target` may not import `module`, or nil when it may.
  static func violation(target: String, imports module: String) -> String? {
    if let owner = cOwner[module] {
      return owner == target ? nil : "\(target) imports \(module), which only \(owner) may use"
    }
    guard let moduleRank = rank[module] else { return nil }  // Foundation, Glibc, ...
    guard let targetRank = rank[target] else { return "\(target) is in no layer" }
    return moduleRank < targetRank ? nil : "\(target) (layer \(targetRank)) imports \(module) (layer \(moduleRank))"
  }

  /// Every `import` of every Swift file under `Sources/<target>`, as (file, module).
  static func imports(of target: String) throws -> [(file: String, module: String)] {
    let folder = sources.appendingPathComponent(target)
    var found: [(String, String)] = []
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
              words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { continue }
        found.append(("\(target)/\(file)", String(words[index + 1].split(separator: ".")[0])))
      }
    }
    return found
  }

  @Test func everySourceFolderIsALayer() throws {
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
      .filter { !$0.hasPrefix(".") && Self.cOwner[$0] == nil }
    #expect(Set(folders) == Set(Self.rank.keys))
  }

  @Test func importsGoOnlyDown() throws {
    var problems: [String] = []
    for target in Self.rank.keys.sorted() {
      for (file, module) in try Self.imports(of: target) {
        if let why = Self.violation(target: target, imports: module) { problems.append("\(file): \(why)") }
      }
    }
    #expect(problems == [])
  }

  /// The edges `Package.swift` declares follow the same rule, so the compiler
  /// refuses an upward import even before these tests run.
  @Test func packageEdgesGoOnlyDown() throws {
    let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
    let target = try Regex(#"\.(?:executableTarget|target)\(\s*name:\s*"(\w+)",\s*dependencies:\s*\[([^\]]*)\]"#)
    var problems: [String] = []
    var seen: Set<String> = []
    for match in manifest.matches(of: target) {
      guard let name = match.output[1].substring.map(String.init), Self.rank[name] != nil,
            let list = match.output[2].substring else { continue }
      seen.insert(name)
      for dependency in list.matches(of: try Regex(#""(\w+)""#)) {
        guard let module = dependency.output[1].substring.map(String.init) else { continue }
        if let why = Self.violation(target: name, imports: module) { problems.append("Package.swift: \(why)") }
      }
    }
    #expect(problems == [])
    #expect(seen == Set(Self.rank.keys))
  }

  /// What the executable may import: the one assembling layer (which holds
  /// the commands, their parse and the console) and the system.
  static let executableImports: Set<String> = ["DuetApp", "Foundation", "Glibc", "Darwin"]

  /// The executable is `main` and the commit a release build stamps: every
  /// command, its arguments and its printing are DuetApp's, so it imports
  /// DuetApp alone (and Foundation), and `Package.swift` gives it no other
  /// edge. What no other target calls stays internal to DuetApp (issue 54, item 1).
  @Test func theExecutableImportsOnlyTheApp() throws {
    var problems: [String] = []
    for (file, module) in try Self.imports(of: "duet") where !Self.executableImports.contains(module) {
      problems.append("\(file) imports \(module)")
    }
    #expect(problems == [])
    let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
    let target = try Regex(#"\.executableTarget\(\s*name:\s*"duet",\s*dependencies:\s*\[([^\]]*)\]"#)
    let list = try #require(manifest.firstMatch(of: target)?.output[1].substring)
    let edges = list.matches(of: try Regex(#""(\w+)""#)).compactMap { $0.output[1].substring.map(String.init) }
    #expect(Set(edges) == ["DuetApp"])
  }

  /// Lines of Swift under `Sources/<target>`, counted as `wc -l` counts them.
  static func lineCount(of target: String) throws -> Int {
    let folder = sources.appendingPathComponent(target)
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    var lines = 0
    for file in files where file.hasSuffix(".swift") {
      lines += try Data(contentsOf: folder.appendingPathComponent(file)).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }
    return lines
  }

  /// Issue 54, item 2: DuetRun held the run, the history store, the run's
  /// reports and the pages, 8,617 lines, so a change to a page rebuilt the run
  /// loop and no reader could see where the run ends. The history (DuetHistory),
  /// the pages (DuetPages) and the reports (DuetRunReports) are targets of their
  /// own now. DuetRun stays under 4,000 lines: what grows in it next is a piece
  /// to move out into a target with its own job, not more of the run.
  @Test func theRunStaysUnderFourThousandLines() throws {
    let lines = try Self.lineCount(of: "DuetRun")
    #expect(lines > 1_000, "the count found \(lines) lines: is Sources/DuetRun there?")
    #expect(lines < 4_000, "Sources/DuetRun has \(lines) lines; move a cohesive piece into a target of its own (docs/architecture.md)")
  }

  /// The rule itself: an upward, a sideways and a misplaced C import are caught.
  @Test func theRuleCatchesWhatItShould() {
    #expect(Self.violation(target: "DuetModel", imports: "DuetRun") != nil)
    #expect(Self.violation(target: "DuetTokens", imports: "DuetMocks") != nil)
    #expect(Self.violation(target: "DuetRun", imports: "DuetApp") != nil)
    #expect(Self.violation(target: "DuetTokens", imports: "CSQLite") != nil)
    #expect(Self.violation(target: "DuetApp", imports: "DuetRun") == nil)
    #expect(Self.violation(target: "DuetHistory", imports: "CSQLite") == nil)
    #expect(Self.violation(target: "DuetRun", imports: "CSQLite") != nil)
    #expect(Self.violation(target: "DuetHistory", imports: "DuetRun") != nil)
    #expect(Self.violation(target: "DuetRun", imports: "DuetRunReports") != nil)
  }
}
