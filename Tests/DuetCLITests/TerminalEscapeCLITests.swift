import Foundation
import Testing

/// Tree text that tries to start a workflow command (`::error`) or send a
/// terminal escape through what duet prints (issue 27, defect 4).
@Suite("tree text in printed lines")
struct TerminalEscapeCLITests {
  static let spoof = "::error title=spoof::forged"

  /// No printed line starts with `::` (a GitHub workflow command), and nothing
  /// printed holds a raw control other than `\n` and tab.
  static func expectClean(_ run: DuetRun, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for line in (run.stdout + run.stderr).split(separator: "\n") {
      #expect(!line.hasPrefix("::"), "\(what): \(line)", sourceLocation: sourceLocation)
      let raw = line.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" }
      #expect(raw.isEmpty, "\(what): raw \(raw.map { $0.value }) in \(line.debugDescription)", sourceLocation: sourceLocation)
    }
  }

  /// A tracked file named `x\n::error…` that a lane modifies is named escaped in
  /// the `--strict` verdict, on one line.
  @Test func strictVerdictEscapesFileNames() throws {
    let name = "x\n\(Self.spoof)"
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: writer
          sh: for f in x*; do echo more >> "$f"; done
      """)
    try tree.write(name, "base\n")
    try CIGit.commitAll(tree)
    let strict = try tree.duet("verify", "--strict")
    #expect(strict.status == 1)
    Self.expectClean(strict, "--strict")
    #expect(strict.stdout.contains("tracked file(s): x\\n::error title=spoof::forged"), "\(strict.stdout)")
  }

  /// A `requires:` entry holding `\n::error…` and an escape sequence is shown
  /// escaped in the progress line, the summary, the failure block and the
  /// `--dry-run` reasons.
  @Test func requiresEntriesAreEscaped() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: needy
          sh: "true"
          requires: ["nothere\\n\(Self.spoof)\\e]0;title\\a"]
      """)
    let run = try tree.duet("verify", "--strict")
    Self.expectClean(run, "verify")
    #expect(run.stdout.contains("nothere\\n::error"), "\(run.stdout)")
    let plain = try tree.duet("verify")
    Self.expectClean(plain, "verify")
    let dry = try tree.duet("verify", "--dry-run")
    Self.expectClean(dry, "--dry-run")
  }

  /// Commands and folder names with OSC and CSI sequences, CR and NEL are
  /// printed escaped by `lanes`, `doctor` and `init`.
  @Test func lanesDoctorAndInitEscapeTreeText() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: osc
          sh: "printf '\\e]0;pwned\\a\\e[2J' \\r\(Self.spoof)"
          requires: ["prog\\e]8;;http://x\\a"]
      """)
    Self.expectClean(try tree.duet("lanes"), "lanes")
    Self.expectClean(try tree.duet("doctor"), "doctor")
    let other = try FixtureTree()
    try other.write("P\u{1B}]0;pwned\u{07}\r\n\(Self.spoof)\u{85}/Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"P\", targets: [.testTarget(name: \"PTests\")])\n")
    let initRun = try other.duet("init")
    #expect(initRun.status == 0, "\(initRun.stderr)")
    Self.expectClean(initRun, "init")
  }

  /// A tree whose folder is named `r\n::error…` is named escaped by `doctor`
  /// and `init` (issue 42, item 4: both printed the root raw before lines
  /// were a `TerminalLine`, so the name started a workflow command).
  @Test func rootFolderNameIsEscaped() throws {
    let tree = try FixtureTree()
    let name = "r\n\(Self.spoof)"
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent(name), withIntermediateDirectories: true)
    let doctor = try tree.duet("doctor", "--root", name)
    Self.expectClean(doctor, "doctor")
    #expect(doctor.stdout.hasPrefix("duet doctor: ") && doctor.stdout.contains("/r\\n::error title=spoof::forged\n"), "\(doctor.stdout)")
    let initRun = try tree.duet("init", "--root", name)
    #expect(initRun.status == 0, "\(initRun.stderr)")
    Self.expectClean(initRun, "init")
  }

  /// `DUET_HISTORY` naming a folder whose name holds `\n::error…`: every
  /// history command's error names it escaped, on one line.
  @Test func historyStorePathIsShownEscaped() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true'}\n")
    let store = tree.url.appendingPathComponent("h\n\(Self.spoof)").path
    try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
    for command in [["history"], ["logs", "a"], ["flaky"], ["stats"], ["report"]] {
      let run = try tree.duet(arguments: command, environment: ["DUET_HISTORY": store])
      #expect(run.status != 0, "\(command)")
      Self.expectClean(run, command.joined(separator: " "))
      #expect(run.stderr.contains("h\\n::error title=spoof::forged is not a duet history store"), "\(run.stderr)")
    }
  }

  /// A store's log path is text from wherever the store was recorded (`history
  /// merge` brings in other machines' rows): one holding `\n::error…` is named
  /// escaped when `duet logs` cannot find or read the log.
  @Test func aStoredLogPathIsShownEscaped() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'echo out'}\n")
    #expect(try tree.duet("verify").status == 0)
    let store = tree.url.appendingPathComponent(".duet/history.sqlite").path
    let forged = ".duet/logs/x\\n\(Self.spoof)/a.log"
    let script = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE steps SET log_path = ?', (sys.argv[2].replace(chr(92) + 'n', chr(10)),)); c.commit()"
    let edit = try shell("python3 -c \"\(script)\" '\(store)' '\(forged)'", in: URL(fileURLWithPath: "/"))
    #expect(edit.status == 0, "\(edit.output)")
    let run = try tree.duet("logs", "a")
    #expect(run.status != 0, "\(run.stdout)")
    Self.expectClean(run, "logs")
    #expect(run.stderr.contains("x\\n::error title=spoof::forged"), "\(run.stderr)")
  }

  /// Run outside any tree from a folder named `x\n::error…`: the message that
  /// names where duet looked (`design-tokens` and `theme-test` name both
  /// markers) shows the folder escaped, on one line.
  @Test func noTreeMessageShowsTheFolderEscaped() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-notree-\(UUID().uuidString)/x\n\(Self.spoof)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    for command in ["design-tokens", "theme-test", "verify", "lanes"] {
      let run = try runBinary([command], in: folder)
      #expect(run.status == 2, "\(command): \(run.stderr)")
      Self.expectClean(run, command)
      #expect(run.stderr.contains("x\\n::error title=spoof::forged or any folder above it"), "\(command): \(run.stderr)")
    }
  }

  /// A manifest or token config value that a diagnostic quotes (an unknown
  /// `needs:` lane, an `inputs:` path with `..`, a group heading) holding
  /// `\n::error…` is quoted escaped: the diagnostic stays one line, so
  /// `duet verify`, `duet lanes` and `duet design-tokens` print no forged
  /// workflow command.
  @Test func diagnosticsQuoteTreeTextEscaped() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: a
          sh: "true"
          inputs: ["../x\\n\(Self.spoof)"]
          needs: ["b\\n\(Self.spoof)\\e]0;title\\a"]
      """)
    for command in ["verify", "lanes"] {
      let run = try tree.duet(command)
      #expect(run.status == 2)
      Self.expectClean(run, command)
      #expect(run.stderr.contains("needs unknown lane 'b\\n::error title=spoof::forged\\u{1B}]0;title\\u{7}'"), "\(run.stderr)")
    }
    try tree.write("parity/design-tokens.yaml", """
      version: 1
      swift:
        output: ios/Gen
        engine: DuetTheming
        theme: MainTheme
      colors:
        - group: "x\\n\(Self.spoof)"
          tokens:
            - name: surface
              value: "#FFFFFF"
      """)
    let tokens = try tree.duet("design-tokens")
    #expect(tokens.status != 0)
    Self.expectClean(tokens, "design-tokens")
    #expect(tokens.stderr.contains("colour group 'x\\n::error title=spoof::forged'"), "\(tokens.stderr)")
  }
}

/// `--junit PATH` by the one rule of what duet replaces (issue 27, defect 6).
@Suite("--junit never renames over what is not a regular file")
struct JUnitTargetCLITests {
  /// A link to /dev/null takes the report and stays a link; a FIFO no one reads
  /// fails the run with a clear error at once and stays a FIFO.
  @Test func devicesAndPipes() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true'}\n")
    let link = tree.url.appendingPathComponent("out-null").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    let run = try tree.duet("verify", "--junit", "out-null")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
    let fifo = tree.url.appendingPathComponent("out-fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let refused = try tree.duet("verify", "--junit", "out-fifo")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("--junit") && refused.stderr.contains("no one reads"), "\(refused.stderr)")
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
  }
}

/// File and folder names that are not UTF-8 (issue 27, the fuzz brief): what
/// duet prints and writes from them stays clean and parses.
@Suite("names that are not UTF-8")
struct NonUTF8NamesCLITests {
  /// Creates `name` (raw bytes, relative to `folder`) as a file holding `text`.
  static func create(_ name: [UInt8], in folder: URL, _ text: String) throws {
    let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
    let fd = path.withUnsafeBufferPointer { $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
    #expect(fd >= 0)
    _ = text.withCString { write(fd, $0, strlen($0)) }
    close(fd)
  }

  /// A tracked file named with a byte that is not UTF-8, a newline and
  /// `::error`, modified by a lane: the `--strict` verdict stays one clean line.
  @Test func strictVerdict() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: writer\n    sh: for f in x*; do echo more >> \"$f\"; done\n")
    try Self.create(Array("x".utf8) + [0xFF, 0xFE] + Array("\n::error title=spoof::forged".utf8), in: tree.url, "base\n")
    try CIGit.commitAll(tree)
    let strict = try tree.duet("verify", "--strict")
    #expect(strict.status == 1)
    TerminalEscapeCLITests.expectClean(strict, "--strict")
    #expect(strict.stdout.contains("1 tracked file(s): x"), "\(strict.stdout)")
  }

  /// A folder named with bytes that are not UTF-8 and a line break, holding a
  /// Package.swift: init's output is clean and its manifest reads back with no
  /// lane from the name (today the survey passes such a folder by).
  @Test func initSurvey() throws {
    let tree = try FixtureTree()
    let folder = Array("P".utf8) + [0xC3, 0x28] + Array("\r- {name: pwn, sh: x}".utf8)
    let path = Array(tree.url.path.utf8) + [UInt8(ascii: "/")] + folder + [0]
    _ = path.withUnsafeBufferPointer { $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) { mkdir($0, 0o755) } }
    try Self.create(folder + Array("/Package.swift".utf8), in: tree.url, "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"P\", targets: [.testTarget(name: \"PTests\")])\n")
    let run = try tree.duet("init")
    #expect(run.status == 0, "\(run.stderr)")
    TerminalEscapeCLITests.expectClean(run, "init")
    let lanes = try tree.duet("lanes", "--json")
    #expect(lanes.status == 0, "\(lanes.stderr)")
    #expect(!lanes.stdout.contains("\"pwn\""), "\(lanes.stdout)")
  }
}
