import Foundation
import Testing
@testable import DuetApp
@testable import DuetDoctor
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetOutput
@testable import DuetSupport
@testable import DuetHistory

@Suite("Doctor parts")
struct DoctorPartsTests {
  /// The programs of a shell command: first words after assignments, not built-ins or variables; `cd` moves relative ones.
  @Test func shellPrograms() {
    func names(_ text: String) -> [String] { ShellPrograms.programs(in: text).map { ($0.directory.map { $0 + ":" } ?? "") + $0.name } }
    #expect(names("cd src-kmp && ./gradlew :theming:jvmTest --console=plain") == ["src-kmp:./gradlew"])
    #expect(names("swift test --package-path 'My Packages/Kit'") == ["swift"])
    #expect(names("mkdir -p \"$DUET_ROOT/.duet/build\" && swiftc -o \"$DUET_ROOT/x\" a.swift && \"$DUET_ROOT/x\"") == ["mkdir", "swiftc"])
    #expect(names("GRADLE_OPTS=-Xmx2g env A=1 gradle test | tee log; echo done") == ["gradle", "tee"])
    #expect(names("true || bin/fallback\nexec kotlin -cp x Main") == ["bin/fallback", "kotlin"])
    #expect(names("cd $HOME && ./run") == ["./run"])
    #expect(ShellPrograms.programs(in: "cd $HOME && ./run").first?.directory == nil)
  }

  /// Redirections, subshells, substitutions, background jobs and escapes are shell syntax, not programs.
  @Test func shellSyntaxIsNoProgram() {
    func names(_ text: String) -> [String] { ShellPrograms.programs(in: text).map(\.name) }
    #expect(names("ls -la 2>&1 | tee out.log") == ["ls", "tee"])
    #expect(names("ls && (cd /tmp && make)") == ["ls", "make"])
    #expect(names("gradle test &>all.log & sleep 1; wait") == ["gradle", "sleep"])
    #expect(names(">log 2> err swift build") == ["swift"])
    #expect(names("echo $(git rev-parse HEAD) > rev && my\\ tool --x") == ["my tool"])
    #expect(names("make |& tee log") == ["make", "tee"])
    // A `cd` in a subshell moves only the subshell; an escaped quote stays inside its string.
    let after = ShellPrograms.programs(in: "(cd sub && ./gradlew test) && ./other/tool")
    #expect(after.map(\.name) == ["./gradlew", "./other/tool"])
    #expect(after.map(\.directory) == ["sub", nil])
    #expect(names("sh -c \"echo \\\"x\\\"\" && ./gradlew") == ["sh", "./gradlew"])
  }

  /// A version probe that never answers is killed at its deadline; missing and failing tools are said so.
  @Test func toolProbe() throws {
    let bin = try TemporaryFolder()
    try bin.write("slow", "#!/bin/sh\nexec /bin/sleep 30\n")
    try bin.write("talks", "#!/bin/sh\necho 'warming up' >&2\necho 'talks version 1.2.3' >&2\n")
    try bin.write("fails", "#!/bin/sh\necho 'broken install'\nexit 3\n")
    for name in ["slow", "talks", "fails"] {
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.url.appendingPathComponent(name).path)
    }
    try bin.write("plain", "not executable\n")
    let environment = ["PATH": "/nonexistent:" + bin.url.path]

    let started = Date()
    let slow = ToolProbe.version(of: "slow", argument: "--version", environment: environment, timeout: 0.5)
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(!slow.ok)
    #expect(slow.text == "'slow --version' did not answer within 0.50s; killed")

    let talks = ToolProbe.version(of: "talks", argument: "-version", environment: environment, timeout: 5)
    #expect(talks.ok && talks.text == "talks version 1.2.3")
    #expect(talks.path == bin.url.path + "/talks")

    let fails = ToolProbe.version(of: "fails", argument: "--version", environment: environment, timeout: 5)
    #expect(!fails.ok && fails.text == "'fails --version' exited 3: broken install")

    #expect(ToolProbe.version(of: "plain", argument: "--version", environment: environment, timeout: 5).text == "not found on PATH")
    #expect(ToolProbe.which("talks", path: nil) == nil)
  }

  /// A store duet made reads back with its schema and a passing integrity check; a damaged one is broken; none is absent.
  @Test func historyHealth() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("history.sqlite").path
    #expect(HistoryHealth.inspect(path: path).state == .absent)
    #expect(HistoryHealth.inspect(path: nil).state == .off)
    _ = try HistoryStore(path: path)
    let good = HistoryHealth.inspect(path: path)
    #expect(good.state == .store(schema: HistoryStore.schemaVersion, integrity: "ok"))
    #expect(good.size > 0 && !good.isProblem)

    try folder.write("junk.sqlite", String(repeating: "junk ", count: 1000))
    let junk = HistoryHealth.inspect(path: folder.url.appendingPathComponent("junk.sqlite").path)
    guard case .broken(let why) = junk.state else {
      Issue.record("a file of junk should be broken, got \(junk.state)")
      return
    }
    #expect(why.contains("file is not a database"))
    #expect(junk.isProblem)
  }

  /// Hanging lists wrap under their second column, put a long name on its own line, and keep a word
  /// longer than a line (a path) whole on a line of its own instead of breaking it mid-word.
  @Test func hangingList() {
    let path = "src/" + String(repeating: "p", count: 26)
    let lines = HangingList.lines([("a", "one two three four five six"), ("a-much-longer-name", "x"), ("b", "into \(path), then")], maxWidth: 40).map(\.text)
    let hang = String(repeating: " ", count: 14)
    #expect(lines == [
      "  a" + String(repeating: " ", count: 11) + "one two three four five",
      hang + "six",
      "  a-much-longer-name",
      hang + "x",
      "  b" + String(repeating: " ", count: 11) + "into",
      hang + path + ",",
      hang + "then",
    ])
    for line in lines where !line.contains(path) { #expect(line.count <= 40, "\(line)") }
    #expect(HangingList.wrap("aa bb cc", width: 5) == ["aa bb", "cc"])
    #expect(HangingList.wrap("abcdefgh ij", width: 3) == ["abcdefgh", "ij"])
  }
}
