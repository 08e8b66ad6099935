import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetRunReports
@testable import DuetHistory

/// A scratch folder for one test, removed afterwards.
final class ScratchFolder: @unchecked Sendable {
  let url: URL
  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-hostile-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(at: url) }

  func write(_ path: String, _ text: String) throws {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
  }

  func mkdir(_ path: String) throws {
    try FileManager.default.createDirectory(at: url.appendingPathComponent(path), withIntermediateDirectories: true)
  }
}

/// The manifest's messages for `text`, as the CLI prints them.
func manifestErrors(_ text: String) -> [String] {
  do {
    let node = try YAMLParser.parse(text, file: "lanes/manifest.yaml")
    _ = try ManifestLoader.parse(node, path: "lanes/manifest.yaml", builtins: ["design-tokens": ["--check"]])
    return []
  } catch let error as any DiagnosticError {
    return error.diagnostics.map(\.description)
  } catch {
    return ["\(error)"]
  }
}

@Suite("Hostile input: bounds, positions and the path guard, in the library")
struct HostileInputTests {
  /// Finding 3: a 40,000-deep flow list or mapping is refused at the 513th level with its line and column, in every YAML loader.
  @Test func deepNestingIsRefusedWhileParsing() throws {
    let deepList = "version: 1\nlanes: " + String(repeating: "[", count: 40_000) + String(repeating: "]", count: 40_000) + "\n"
    let deepMap = "version: 1\nlanes: " + String(repeating: "{a: ", count: 40_000) + "1" + String(repeating: "}", count: 40_000) + "\n"
    for text in [deepList, deepMap] {
      let errors = manifestErrors(text)
      #expect(errors.count == 1)
      #expect(errors.first?.hasPrefix("lanes/manifest.yaml:2:") == true)
      #expect(errors.first?.contains("nesting deeper than 512 levels") == true)
      #expect(throws: TokenConfigError.self) { try TokenConfigLoader.parse(text, path: "parity/design-tokens.yaml") }
      #expect(throws: YAMLError.self) { try YAMLParser.parse(text, file: "parity/manifest.yaml") }
    }
    // Exactly at the limit is still read.
    let atLimit = "x: " + String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
    #expect((try? YAMLParser.parse(atLimit, file: "f.yaml")) != nil)
  }

  /// Finding 3: a DTCG file nested 100,000 deep is a JSON error with its place, not a crash (Foundation's parser stops at 512).
  @Test func deepJSONIsRefused() {
    let deep = "{\"a\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
    do {
      _ = try JSONDocument.parse(Data(deep.utf8), file: "parity/x.tokens.json")
      Issue.record("expected an error")
    } catch {
      #expect(error.diagnostics.first?.location?.file == "parity/x.tokens.json")
    }
  }

  /// Finding 3: block-style nesting (indentation) past the limit is refused too.
  @Test func deepBlockNestingIsRefused() {
    var text = ""
    for level in 0..<600 { text += String(repeating: " ", count: level) + "a:\n" }
    text += String(repeating: " ", count: 600) + "b: 1\n"
    #expect(throws: YAMLError.self) { try YAMLParser.parse(text, file: "f.yaml") }
  }

  /// Finding 3: an alias cannot carry nesting past the limit either.
  @Test func aliasesCountTowardsDepth() {
    let anchored = "a: &x " + String(repeating: "[", count: 400) + String(repeating: "]", count: 400) + "\n"
    let used = "b: " + String(repeating: "[", count: 200) + "*x" + String(repeating: "]", count: 200) + "\n"
    do {
      _ = try YAMLParser.parse(anchored + used, file: "f.yaml")
      Issue.record("expected a depth error")
    } catch {
      #expect(error.diagnostics.first?.message.contains("once '*x' is expanded") == true)
    }
  }

  /// Finding 4: a glob of many `**` over a deep chain of folders finishes and matches, in the walk and in `matches`.
  @Test func globsArePolynomial() throws {
    let scratch = try ScratchFolder()
    let depth = 40
    let chain = Array(repeating: "d", count: depth).joined(separator: "/")
    try scratch.write(chain + "/y", "y")
    let pattern = Array(repeating: "**/d", count: 12).joined(separator: "/") + "/**/y"
    let glob = Glob(pattern)
    #expect(glob.expand(in: scratch.url, kind: .files) == [chain + "/y"])
    #expect(glob.matches(chain + "/y"))
    #expect(!glob.matches(chain + "/z"))
    let long = Array(repeating: "d", count: 2000).joined(separator: "/") + "/x"
    #expect(!Glob(Array(repeating: "**/d", count: 50).joined(separator: "/") + "/**/y").matches(long))
  }

  /// Finding 2: a glob with `..` or a leading `/` matches nothing, and a literal FIFO or link is never matched.
  @Test func globsStayInTheTree() throws {
    let scratch = try ScratchFolder()
    try scratch.write("tree/a.txt", "a")
    try scratch.write("secret", "s")
    let tree = scratch.url.appendingPathComponent("tree")
    #expect(Glob("../secret").expand(in: tree).isEmpty)
    #expect(Glob(scratch.url.appendingPathComponent("secret").path).expand(in: tree).isEmpty)
    #expect(mkfifo(tree.appendingPathComponent("pipe").path, 0o644) == 0)
    try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("zero").path, withDestinationPath: "/dev/zero")
    #expect(Glob("pipe").expand(in: tree).isEmpty)
    #expect(Glob("zero").expand(in: tree).isEmpty)
    #expect(Glob("*").expand(in: tree) == ["a.txt"])
  }

  /// Finding 4: 2,000 colour aliases in a ring are one circular-alias error; a 20,000-long chain resolves without recursion.
  @Test func aliasRingsAreLinear() throws {
    func config(_ count: Int, ring: Bool) -> String {
      var text = "version: 1\nswift:\n  output: ios\n  engine: E\n  theme: T\ncolors:\n  - tokens:\n"
      for index in 1...count {
        let target = index == count ? (ring ? "{c1}" : "#112233") : "{c\(index + 1)}"
        text += "      - name: c\(index)\n        value: \"\(target)\"\n"
      }
      return text
    }
    let started = Date()
    do {
      _ = try TokenConfigLoader.parse(config(2000, ring: true), path: "parity/design-tokens.yaml")
      Issue.record("expected a circular alias")
    } catch {
      let circular = error.diagnostics.filter { $0.message.contains("circular alias") }
      #expect(circular.count == 1)
    }
    let chained = try TokenConfigLoader.parse(config(20_000, ring: false), path: "parity/design-tokens.yaml")
    #expect(chained.colors.count == 20_000)
    #expect(Date().timeIntervalSince(started) < 30)
  }

  /// Finding 4: two separate rings are both reported, once each.
  @Test func everyCycleIsReported() {
    let text = """
      version: 1
      swift: {output: ios, engine: E, theme: T}
      colors:
        - tokens:
            - {name: a, value: "{b}"}
            - {name: b, value: "{a}"}
            - {name: c, value: "{d}"}
            - {name: d, value: "{c}"}
            - {name: e, value: "{a}"}
      """
    do {
      _ = try TokenConfigLoader.parse(text, path: "parity/design-tokens.yaml")
      Issue.record("expected circular aliases")
    } catch {
      #expect(error.diagnostics.filter { $0.message.contains("circular alias") }.count == 2)
    }
  }

  /// Finding 3: `--shard` with a huge N costs nothing and keeps its meaning: a shard past the lane count is empty.
  @Test func shardsAreIndependentOfN() {
    let names = ["a", "b", "c", "d", "e"]
    let weights: [Double] = [5, 1, 3, 2, 4]
    #expect(Sharding.Spec.parse("9223372036854775807/9223372036854775807") == Sharding.Spec(index: .max, count: .max))
    #expect(Sharding.lanes(of: .init(index: .max, count: .max), names: names, weights: weights).isEmpty)
    #expect(Sharding.lanes(of: .init(index: 1, count: 100_000_000_000), names: names, weights: weights) == [0])
    #expect(Sharding.lanes(of: .init(index: 5, count: 1_000_000_000), names: names, weights: weights) == [1])
    for count in 1...7 {
      let full = Sharding.partition(names: names, weights: weights, count: count)
      for index in 1...count {
        #expect(Sharding.lanes(of: .init(index: index, count: count), names: names, weights: weights) == full[index - 1])
      }
    }
  }

  /// Findings 3 and 7: retries and timeouts have maxima; huge numbers are errors naming file:line:col.
  @Test func retriesAndTimeoutsAreBounded() {
    let errors = manifestErrors("""
      version: 1
      lanes:
        - name: a
          sh: 'true'
          retries: 9223372036854775807
          timeout: 99999999999999999999h
        - name: b
          sh: 'true'
          retries: 11
          timeout: 8d
      """)
    #expect(errors == [
      "lanes/manifest.yaml:5:14: error: lane 'a': 'retries' must be at most 10, got \"9223372036854775807\"",
      "lanes/manifest.yaml:6:14: error: lane 'a': 'timeout' must be a duration such as 90s, 10m or 1h, at most 7d, got \"99999999999999999999h\"",
      "lanes/manifest.yaml:9:14: error: lane 'b': 'retries' must be at most 10, got \"11\"",
      "lanes/manifest.yaml:10:14: error: lane 'b': 'timeout' must be a duration such as 90s, 10m or 1h, at most 7d, got \"8d\"",
    ])
    #expect(DurationText.seconds("99999999999999999999h") == nil)
    #expect(DurationText.seconds("1e308") == nil)
    #expect(DurationText.seconds("7d") == 604_800)
  }

  /// Finding 7: env names that cannot reach a child intact, and bare numbers or booleans given for lists, are errors at their place.
  @Test func validationGaps() {
    let errors = manifestErrors("""
      version: 1
      modules: 5
      lanes:
        - name: a
          sh: 'true'
          covers: 7
          requires: yes
          env:
            "A=B": x
            "": y
            "C\\0D": z
            E: "f\\0g"
            OK: fine
      """)
    #expect(errors == [
      "lanes/manifest.yaml:2:10: error: the manifest: 'modules' must be a list of strings, got 5 (a YAML number; quote it or write a list)",
      "lanes/manifest.yaml:6:13: error: lane 'a': 'covers' must be a list of strings, got 7 (a YAML number; quote it or write a list)",
      "lanes/manifest.yaml:7:15: error: lane 'a': 'requires' must be a list of strings, got yes (a YAML boolean; quote it or write a list)",
      "lanes/manifest.yaml:9:7: error: lane 'a': 'env' names must be non-empty and hold no '=' or NUL, got \"A=B\"",
      "lanes/manifest.yaml:10:7: error: lane 'a': 'env' names must be non-empty and hold no '=' or NUL, got \"\"",
      "lanes/manifest.yaml:11:7: error: lane 'a': 'env' names must be non-empty and hold no '=' or NUL, got \"C\\0D\"",
      "lanes/manifest.yaml:12:10: error: lane 'a': 'env.E' holds a NUL byte, which no environment variable can carry",
    ])
    #expect(manifestErrors("version: 1\nmodules: \"5\"\nlanes: []\n").isEmpty)
  }

  /// Finding 6: a lane name too long for its log file's name is a manifest error.
  @Test func laneNamesFitInAFileName() {
    let name = String(repeating: "n", count: 300)
    let errors = manifestErrors("version: 1\nlanes:\n  - name: \(name)\n    sh: 'true'\n")
    #expect(errors.count == 1)
    #expect(errors.first?.hasPrefix("lanes/manifest.yaml:3:11: error:") == true)
    #expect(errors.first?.contains("at most 200 characters") == true)
  }

  /// Finding 7: a spacing step of 1e308 is refused, so Kotlin never gets `1e+308f`.
  @Test func hugeScaleStepsAreRefused() {
    let text = "version: 1\nkotlin: {output: kmp, package: p, engine: e, palette: P}\nspacing:\n  x1: 1e308\ncolors: []\n"
    do {
      _ = try TokenConfigLoader.parse(text, path: "parity/design-tokens.yaml")
      Issue.record("expected an error")
    } catch {
      #expect(error.diagnostics.map(\.description) == [
        "parity/design-tokens.yaml:4:7: error: spacing step 'x1': must be a number of points from 0 to 100000, got \"1e308\"",
      ])
    }
  }

  /// Finding 8: a NUL or a byte that is not UTF-8 is reported at its own line and column, not at 1:1.
  @Test func badBytesAreReportedWhereTheyAre() throws {
    let scratch = try ScratchFolder()
    try Data("version: 1\nlanes:\n  - name: a\0\n".utf8).write(to: scratch.url.appendingPathComponent("nul.yaml"))
    try Data("version: 1\n# é ok\nlan".utf8 + [0xFF] + Data("es:\n".utf8)).write(to: scratch.url.appendingPathComponent("ff.yaml"))
    #expect(throws: YAMLError.self) { try YAMLParser.load(scratch.url.appendingPathComponent("nul.yaml"), file: "nul.yaml") }
    do {
      _ = try YAMLParser.load(scratch.url.appendingPathComponent("nul.yaml"), file: "nul.yaml")
    } catch {
      #expect(error.diagnostics.map(\.description) == ["nul.yaml:3:12: error: nul.yaml is not UTF-8 text: a NUL byte"])
    }
    do {
      _ = try YAMLParser.load(scratch.url.appendingPathComponent("ff.yaml"), file: "ff.yaml")
    } catch {
      #expect(error.diagnostics.map(\.description) == ["ff.yaml:3:4: error: ff.yaml is not UTF-8 text: byte 0xFF is not UTF-8"])
    }
  }

  /// Finding 8: a manifest that is a FIFO is named as one, and reading it does not block.
  @Test func fifoManifestIsNamedByKind() throws {
    let scratch = try ScratchFolder()
    try scratch.mkdir("lanes")
    #expect(mkfifo(scratch.url.appendingPathComponent("lanes/manifest.yaml").path, 0o644) == 0)
    do {
      _ = try ManifestLoader.load(root: scratch.url, builtins: [:])
      Issue.record("expected an error")
    } catch {
      #expect(error.diagnostics.map(\.description) == ["error: cannot read lanes/manifest.yaml: it is a FIFO (named pipe), not a regular file"])
    }
  }

  /// The path guard: `..`, absolute paths and links at any component are refused; FIFOs and devices by kind; missing is nil.
  @Test func pathGuard() throws {
    let scratch = try ScratchFolder()
    try scratch.write("tree/real/file.txt", "ok")
    try scratch.write("outside/file.txt", "secret")
    let tree = scratch.url.appendingPathComponent("tree")
    try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("link").path, withDestinationPath: scratch.url.appendingPathComponent("outside").path)
    try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("null").path, withDestinationPath: "/dev/null")
    #expect(mkfifo(tree.appendingPathComponent("pipe").path, 0o644) == 0)
    #expect(try PathGuard.read("real/file.txt", in: tree) == Data("ok".utf8))
    #expect(try PathGuard.read("real/none.txt", in: tree) == nil)
    #expect(try PathGuard.resolve("new/deep/file.txt", in: tree).path == tree.appendingPathComponent("new/deep/file.txt").path)
    #expect(throws: FileError.refused("link/file.txt", reason: "'link' is a symbolic link")) { try PathGuard.read("link/file.txt", in: tree) }
    #expect(throws: FileError.refused("null", reason: "it is a symbolic link")) { try PathGuard.read("null", in: tree) }
    #expect(throws: FileError.refused("pipe", reason: "it is a FIFO (named pipe), not a regular file")) { try PathGuard.read("pipe", in: tree) }
    #expect(throws: FileError.refused("../outside/file.txt", reason: "'..' leads out of the tree")) { try PathGuard.read("../outside/file.txt", in: tree) }
    #expect(throws: FileError.self) { try PathGuard.read("/etc/hostname", in: tree) }
    #expect(throws: FileError.refused("/dev/zero", reason: "it is a character device, not a regular file")) {
      _ = try PathGuard.openRegularFile(atAbsolute: "/dev/zero", displayPath: "/dev/zero")
    }
    #expect(PathGuard.laneFolderProblem("link", in: tree) == "dir 'link': it is a symbolic link")
    #expect(PathGuard.laneFolderProblem("real", in: tree) == nil)
    #expect(PathGuard.laneFolderProblem(".", in: tree) == nil)
  }

  /// `.duet` and `.duet/logs` must be real folders when they exist.
  @Test func stateFolderGuard() throws {
    let scratch = try ScratchFolder()
    #expect(throws: Never.self) { try PathGuard.checkStateFolder(root: scratch.url) }
    try scratch.write(".duet", "a file")
    #expect(throws: FileError.self) { try PathGuard.checkStateFolder(root: scratch.url) }
    try FileManager.default.removeItem(at: scratch.url.appendingPathComponent(".duet"))
    try scratch.mkdir("elsewhere")
    try scratch.mkdir(".duet")
    try FileManager.default.createSymbolicLink(atPath: scratch.url.appendingPathComponent(".duet/logs").path, withDestinationPath: scratch.url.appendingPathComponent("elsewhere").path)
    #expect(throws: FileError.self) { try PathGuard.checkStateFolder(root: scratch.url) }
  }

  /// Finding 1: run ids and log paths from a store must look exactly like what verify writes.
  @Test func logLocations() {
    #expect(LogLocation.isRunID("20261202-181700-3f2a1b"))
    for bad in ["../../tmp/x", "20261202-181700-3f2a1", "20261202-181700-3F2A1B", "20261202/181700-3f2a1b", "", "20261202-181700-3f2a1b/.."] {
      #expect(!LogLocation.isRunID(bad))
    }
    let id = "20261202-181700-3f2a1b"
    #expect(LogLocation.isLogPath(".duet/logs/\(id)/kotlin.log", logID: id))
    #expect(LogLocation.isLogPath(".duet/logs/\(id)/kotlin.attempt-2.log", logID: id))
    for bad in [".duet/logs/\(id)/../../../etc/hostname", ".duet/logs/\(id)/a/b.log", "/etc/hostname", ".duet/logs/\(id)/..log", ".duet/logs/other/kotlin.log"] {
      #expect(!LogLocation.isLogPath(bad, logID: id))
    }
  }

  /// Finding 1: text a merged store would have `duet history` print carries no terminal escapes, and lanes are lane names.
  @Test func mergedTextIsPlain() {
    let id = "20261202-181700-3f2a1b"
    let clean = RunRow(id: "r", logID: id, started: 0, ended: 1, command: "duet verify", root: "/t", gitCommit: nil, host: "ci", outcome: .pass, jobs: 1, duetVersion: "1")
    #expect(LogLocation.problem(run: clean, steps: []) == nil)
    var escaped = clean
    escaped.host = "ci\u{1B}]0;pwned\u{07}"
    #expect(LogLocation.problem(run: escaped, steps: []) == "run 'r': host holds a control character")
    let step = StepRow(runID: "r", lane: "../x", attempt: 1, started: 0, duration: 1, attemptOutcome: nil, laneOutcome: nil, exitCode: nil, fingerprint: nil, logPath: nil)
    #expect(LogLocation.problem(run: clean, steps: [step]) == "run 'r': lane '../x' is not a lane name")
  }

  /// Issue 54, item 11: a merged store's reasons are terminal lines. A run id
  /// holding `\n::error::` and ESC, named before its log id is refused, comes
  /// out escaped once (it went in as it came before), and so does the store's
  /// path in the error that carries the reason.
  @Test func aMergedStoresReasonsEscapeOnce() {
    let hostile = "r\n::error::owned\u{1B}]0;t"
    let run = RunRow(id: hostile, logID: "../x", started: 0, ended: 1, command: "duet verify", root: "/t", gitCommit: nil, host: "ci",
                     outcome: .pass, jobs: 1, duetVersion: "1")
    guard let problem = LogLocation.problem(run: run, steps: []) else { Issue.record("a log id out of its folder was taken"); return }
    #expect(problem.text == #"run r\n::error::owned\u{1B}]0;t: log_id '../x' is not a run id such as 20261202-181700-3f2a1b"#)
    let error = HistoryError.unsafeRow("ci/\(hostile).sqlite", problem)
    #expect(error.description == #"ci/r\n::error::owned\u{1B}]0;t.sqlite: refusing the whole store, nothing merged from it: "#
            + #"run r\n::error::owned\u{1B}]0;t: log_id '../x' is not a run id such as 20261202-181700-3f2a1b"#)
  }

  /// Finding 1 and 8: merging a store with a row that leads out is refused whole, and the error names the merged store.
  @Test func mergeBlamesTheSourceStore() throws {
    let scratch = try ScratchFolder()
    let source = scratch.url.appendingPathComponent("ci/evil.sqlite").path
    let destination = scratch.url.appendingPathComponent("tree/.duet/history.sqlite").path
    let evil = try HistoryStore(path: source)
    try evil.record(RunRow(id: "r1", logID: "../../../../tmp/x", started: 1, ended: 2, command: "", root: "", gitCommit: nil, host: "", outcome: .pass, jobs: 1, duetVersion: ""), steps: [])
    let store = try HistoryStore(path: destination)
    do {
      _ = try store.merge(from: source)
      Issue.record("expected a refusal")
    } catch {
      #expect("\(error)".hasPrefix("\(source): refusing the whole store"))
    }
    #expect(try store.runCount() == 0)
    try Data("not sqlite at all, but long enough to be read as a header of one...........................".utf8).write(to: URL(fileURLWithPath: source + "2"))
    do {
      _ = try store.merge(from: source + "2")
      Issue.record("expected an error")
    } catch {
      #expect("\(error)".hasPrefix(source + "2"))
    }
  }
}

@Suite("Lost logs are said out loud")
struct LostLogTests {
  /// Finding 6: a failed lane that printed but left no log file is not reported as "(no output)".
  @Test func printedButUnwrittenIsNotNoOutput() {
    var tail = LogTail()
    tail.append("error: boom\n")
    tail.close()
    let printed = LaneVerdict(index: 0, name: "a", outcome: .fail, attempts: [
      LaneAttempt(attempt: 1, outcome: .fail, exitCode: 1, started: 0, duration: 1, logPath: nil, tail: tail),
    ])
    #expect(RunText.failureBlock(printed).first == "── a: exit 1 · log: (not written: the log file could not be made)")
    let silent = LaneVerdict(index: 0, name: "a", outcome: .fail, attempts: [
      LaneAttempt(attempt: 1, outcome: .fail, exitCode: 1, started: 0, duration: 1, logPath: nil, tail: LogTail()),
    ])
    #expect(RunText.failureBlock(silent).first == "── a: exit 1 · log: (no output)")
  }
}
