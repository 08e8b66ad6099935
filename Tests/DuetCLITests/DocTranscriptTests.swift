import Foundation
import Testing

/// A ```` ```console ```` block of README.md or docs/ that starts with `$ duet`:
/// its commands, what the page says each prints, and the tree it runs in.
struct DocTranscript: CustomStringConvertible, Sendable {
  /// The page, relative to the repository root.
  var page: String
  /// The 1-based line of the block's opening fence.
  var line: Int
  /// The folder (relative to the repository root) copied for the block, or nil for an empty tree.
  var tree: String?
  /// Each `$ ` command with the lines the page shows after it.
  var steps: [(command: String, expected: [String])]

  var description: String { "\(page):\(line)" }
}

/// Reads the transcripts of the pages and runs them with the built binary.
///
/// The notation (documented in CONTRIBUTING.md): `{time}` stands for a duration
/// (`0.01s`, `12.3s`), `{run}` for a run id (`20261203-155840-cb0007`), `{tree}` for
/// the temporary folder the block runs in, `{when}` for a date and time, `{commit}`
/// for an abbreviated git commit, `{uuid}` for a random UUID, `{duet}` for the path of the binary under test; a line holding only `...` stands for any
/// number of lines, and `...` inside a line for any text there.
enum DocTranscripts {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// README.md and every page under docs/, in a stable order.
  static let pages: [String] = {
    let docs = (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path)) ?? []
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }()

  /// The transcripts of one page; a console block without a `<!-- transcript: -->`
  /// comment above it is returned with a nil tree and the problem named in `problems`.
  static func parse(page: String, text: String, problems: inout [String]) -> [DocTranscript] {
    let lines = text.components(separatedBy: "\n")
    var result: [DocTranscript] = []
    var pendingTree: String?? = nil
    var index = 0
    while index < lines.count {
      let line = lines[index]
      if let range = line.range(of: "<!-- transcript:"), line.hasSuffix("-->") {
        let body = line[range.upperBound...].dropLast(3).trimmingCharacters(in: .whitespaces)
        var tree: String? = nil
        for word in body.split(separator: " ") where word.hasPrefix("tree=") {
          let value = String(word.dropFirst(5))
          tree = value == "empty" ? nil : value
        }
        pendingTree = .some(tree)
        index += 1
        continue
      }
      if line == "```console" {
        let start = index + 1
        var end = start
        while end < lines.count && lines[end] != "```" { end += 1 }
        let body = Array(lines[start..<min(end, lines.count)])
        if body.contains(where: { $0.hasPrefix("$ ") && runsDuet(String($0.dropFirst(2))) }) {
          var steps: [(command: String, expected: [String])] = []
          for item in body {
            if item.hasPrefix("$ ") { steps.append((String(item.dropFirst(2)), [])) } else { steps[steps.count - 1].expected.append(item) }
          }
          if let tree = pendingTree {
            result.append(DocTranscript(page: page, line: index + 1, tree: tree, steps: steps))
          } else {
            problems.append("\(page):\(index + 1): a console block starting with '$ duet' has no <!-- transcript: tree=... --> comment above it")
          }
        }
        pendingTree = nil
        index = end + 1
        continue
      }
      if !line.trimmingCharacters(in: .whitespaces).isEmpty { pendingTree = nil }
      index += 1
    }
    return result
  }

  static func transcripts(of page: String, problems: inout [String]) -> [DocTranscript] {
    let text = (try? String(contentsOf: repository.appendingPathComponent(page), encoding: .utf8)) ?? ""
    return parse(page: page, text: text, problems: &problems)
  }

  /// Replaces what varies between runs with the notation's placeholders.
  static func normalise(_ output: String, tree: String) -> [String] {
    var text = output.replacingOccurrences(of: tree, with: "{tree}")
    for binary in [duetBinary.resolvingSymlinksInPath().path, duetBinary.standardizedFileURL.path] {
      text = text.replacingOccurrences(of: binary, with: "{duet}")
    }
    let patterns: [(String, String)] = [
      (#"\b[0-9]{8}-[0-9]{6}-[0-9a-f]{6}\b"#, "{run}"),
      // A UUID first: its last group may be twelve digits, which the commit's pattern also takes.
      (#"\b[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\b"#, "{uuid}"),
      (#"\b[0-9a-f]{12}\b"#, "{commit}"),
      (#"(?<![\w.])[0-9]+\.[0-9]+s\b"#, "{time}"),
      (#"(?<![\w.])[0-9]+m[0-9]{2}s\b"#, "{time}"),
      (#"\b[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\b"#, "{when}"),
    ]
    for (pattern, replacement) in patterns {
      text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
    }
    var lines = text.components(separatedBy: "\n").map(trimTrailing)
    while lines.last == "" { lines.removeLast() }
    return lines
  }

  static func trimTrailing(_ line: String) -> String {
    var line = Substring(line)
    while line.last == " " || line.last == "\t" { line = line.dropLast() }
    return String(line)
  }

  /// Nil when `actual` matches `expected`; else the first line that differs, with both sides.
  static func mismatch(expected: [String], actual: [String]) -> String? {
    let expected = progressInAnyOrder({ var e = expected.map(trimTrailing); while e.last == "" { e.removeLast() }; return e }())
    let actual = progressInAnyOrder(actual)
    var best = (expected: 0, actual: 0)
    func matches(_ e: Int, _ a: Int) -> Bool {
      if e > best.expected || (e == best.expected && a > best.actual) { best = (e, a) }
      if e == expected.count { return a == actual.count }
      if expected[e] == "..." {
        for skip in a...actual.count where matches(e + 1, skip) { return true }
        return false
      }
      guard a < actual.count, lineMatches(expected[e], actual[a]) else { return false }
      return matches(e + 1, a + 1)
    }
    if matches(0, 0) { return nil }
    let page = best.expected < expected.count ? expected[best.expected] : "(end of the block)"
    let binary = best.actual < actual.count ? actual[best.actual] : "(end of the output)"
    return "line \(best.expected + 1) of the output differs\n  page:   \(page)\n  binary: \(binary)"
  }

  /// Lanes finish in parallel and start in an order weighed by recorded durations, so
  /// each run of progress lines (`[2/5] ✓ lane {time}`, `      ↻ lane: attempt 1 …`) or
  /// of `--dry-run`'s numbered rows (`  2.  lane  runs …`) is compared as a set:
  /// counters dropped, lines sorted.
  static func progressInAnyOrder(_ lines: [String]) -> [String] {
    func isProgress(_ line: String) -> Bool {
      line.range(of: #"^(\[[0-9]+/[0-9]+\] |  [0-9]+\.  )"#, options: .regularExpression) != nil || line.hasPrefix("      ↻ ")
    }
    var result: [String] = []
    var run: [String] = []
    for line in lines + [""] {
      if isProgress(line) {
        run.append(line.replacingOccurrences(of: #"^(\[[0-9]+/|  [0-9]+\. )"#, with: "#", options: .regularExpression))
        continue
      }
      result += run.sorted()
      run = []
      result.append(line)
    }
    result.removeLast()
    return result
  }

  /// `...` inside a line matches any text there (at least the pieces around it must appear, in order).
  static func lineMatches(_ expected: String, _ actual: String) -> Bool {
    let pieces = expected.components(separatedBy: "...")
    if pieces.count == 1 { return expected == actual }
    guard actual.hasPrefix(pieces[0]) else { return false }
    var rest = actual.dropFirst(pieces[0].count)
    for piece in pieces.dropFirst().dropLast() {
      guard let range = rest.range(of: piece) else { return false }
      rest = rest[range.upperBound...]
    }
    return rest.hasSuffix(pieces[pieces.count - 1])
  }

  /// Runs one transcript in a copy of its tree; the failures, each naming the page, block and line.
  static func run(_ transcript: DocTranscript) throws -> [String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-doc-\(UUID().uuidString)").resolvingSymlinksInPath()
    defer { try? FileManager.default.removeItem(at: folder) }
    if let tree = transcript.tree {
      try FileManager.default.copyItem(at: repository.appendingPathComponent(tree), to: folder)
      for leftover in [".duet", ".build"] { try? FileManager.default.removeItem(at: folder.appendingPathComponent(leftover)) }
    } else {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    var failures: [String] = []
    for step in transcript.steps {
      let output = try shell(step.command, in: folder)
      let actual = normalise(output, tree: folder.path)
      if runsDuet(step.command), let difference = mismatch(expected: step.expected, actual: actual) {
        failures.append("\(transcript.page):\(transcript.line): the block's '$ \(step.command)': \(difference)")
      }
    }
    return failures
  }

  /// Whether a command line runs duet (its output is then compared; other commands set the scene).
  static func runsDuet(_ command: String) -> Bool {
    command.range(of: #"(^|[ ;&|(])duet( |$)"#, options: .regularExpression) != nil
  }

  /// `/bin/sh -c command` in `folder` with the built duet first on PATH, stdout and stderr
  /// in one pipe (in the order written), no colour, and none of the CI variables duet reads.
  static func shell(_ command: String, in folder: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exec 2>&1 </dev/null; " + command]
    process.currentDirectoryURL = folder
    var env = ProcessInfo.processInfo.environment
    for key in env.keys where key.hasPrefix("DUET_") || key.hasPrefix("GITHUB_") || key.hasPrefix("GITLAB") || key == "CI" || key.hasPrefix("ANDROID_") { env.removeValue(forKey: key) }
    env["PATH"] = duetBinary.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    env["TZ"] = "UTC"
    // doctor asks the real kotlinc for its version: the JIT's first tier and one GC
    // thread start that JVM in half the CPU, and change nothing it prints.
    if env["JAVA_OPTS"] == nil { env["JAVA_OPTS"] = "-Xmx256M -Xms32M -XX:TieredStopAtLevel=1 -XX:+UseSerialGC" }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}

@Suite("Transcripts in README.md and docs/ are what the binary prints")
struct DocTranscriptTests {
  /// Every `$ duet` console block of the page prints, on its tree, what the page shows.
  @Test(arguments: DocTranscripts.pages)
  func page(_ page: String) throws {
    var problems: [String] = []
    let transcripts = DocTranscripts.transcripts(of: page, problems: &problems)
    for transcript in transcripts { problems += try DocTranscripts.run(transcript) }
    for problem in problems { Issue.record(Comment(rawValue: problem)) }
  }

  /// The pages hold at least 40 transcript blocks, so the documentation stays tested.
  @Test func enoughBlocks() {
    var problems: [String] = []
    let count = DocTranscripts.pages.reduce(0) { $0 + DocTranscripts.transcripts(of: $1, problems: &problems).count }
    #expect(count >= 40, "only \(count) transcript blocks")
  }

  /// One changed character in a documented output is reported with the page, the block and the line.
  @Test func driftIsReported() throws {
    let page = "<!-- transcript: tree=empty -->\n```console\n$ duet help logs\nusage: duet logs LANE [--run ID]\n...\n```\n"
    var problems: [String] = []
    let good = DocTranscripts.parse(page: "docs/x.md", text: page, problems: &problems)
    #expect(problems.isEmpty && good.count == 1)
    #expect(try DocTranscripts.run(good[0]).isEmpty)
    let drifted = DocTranscripts.parse(page: "docs/x.md", text: page.replacingOccurrences(of: "[--run ID]", with: "[--run IDs]"), problems: &problems)
    let failures = try DocTranscripts.run(drifted[0])
    #expect(failures.count == 1)
    #expect(failures.first?.contains("docs/x.md:2") == true)
    #expect(failures.first?.contains("page:   usage: duet logs LANE [--run IDs]") == true)
    #expect(failures.first?.contains("binary: usage: duet logs LANE [--run ID]") == true)
  }

  /// The placeholders stand for durations, run ids and the temporary tree, and `...` for skipped lines.
  @Test func notation() {
    let actual = DocTranscripts.normalise("[1/2] ✓ a 0.01s\nlog: /tmp/x/.duet/logs/20261203-155840-cb0007/a.log\nslow 1m05s\nmore\nlast", tree: "/tmp/x")
    #expect(actual == ["[1/2] ✓ a {time}", "log: {tree}/.duet/logs/{run}/a.log", "slow {time}", "more", "last"])
    #expect(DocTranscripts.mismatch(expected: ["[1/2] ✓ a {time}", "...", "last"], actual: actual) == nil)
    #expect(DocTranscripts.mismatch(expected: ["[1/2] ✓ a {time}", "log: {tree}...", "...", "last"], actual: actual) == nil)
    #expect(DocTranscripts.mismatch(expected: ["[1/2] ✓ a {time}", "log: {tree}/.../a.log", "...", "last"], actual: actual) == nil)
    #expect(DocTranscripts.mismatch(expected: ["[1/2] ✓ a {time}", "last"], actual: actual) != nil)
  }

  /// A UUID whose last group is all digits was half taken for a commit (CI of stop 58).
  @Test func aUUIDOfDigitsIsAUUID() {
    let actual = DocTranscripts.normalise("::stop-commands::660DF8F7-FDF8-4FEB-B785-123456789012\ncommit 0a1b2c3d4e5f", tree: "/tmp/x")
    #expect(actual == ["::stop-commands::{uuid}", "commit {commit}"])
  }

  /// The README's quick-start manifest is the one its transcripts run on.
  @Test func quickStartManifest() throws {
    let readme = try String(contentsOf: DocTranscripts.repository.appendingPathComponent("README.md"), encoding: .utf8)
    let fixture = try String(contentsOf: DocTranscripts.repository.appendingPathComponent("Tests/Fixtures/docs/quickstart/lanes/manifest.yaml"), encoding: .utf8)
    #expect(readme.contains("```yaml\n" + fixture + "```"))
  }
}
