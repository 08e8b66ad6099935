@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing
@testable import DuetHistory

/// A folder outside any fixture tree, for things a hostile tree points at.
final class OutsideFolder: Sendable {
  let url: URL
  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-outside-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(at: url) }

  func write(_ path: String, _ text: String) throws {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: file, atomically: false, encoding: .utf8)
  }

  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path) }

  /// Every path below the folder, so a test can show nothing changed.
  func listing() -> [String] {
    (FileManager.default.subpaths(atPath: url.path) ?? []).sorted()
  }
}

extension FixtureTree {
  func link(_ path: String, to target: String) throws {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: target)
  }
}

/// A run row as a hostile lane job could write it into a store it uploads.
func hostileRun(id: String, logID: String, started: Double) -> RunRow {
  RunRow(id: id, logID: logID, started: started, ended: started + 1, command: "duet verify", root: "/x", gitCommit: nil,
         host: "ci", outcome: .pass, jobs: 1, duetVersion: "0.1.0")
}

func hostileStep(runID: String, lane: String, logPath: String?) -> StepRow {
  StepRow(runID: runID, lane: lane, attempt: 1, started: 0, duration: 1, attemptOutcome: .pass, laneOutcome: .pass,
          exitCode: 0, fingerprint: nil, logPath: logPath)
}

@Suite("Hostile trees and stores: nothing outside the tree is read, written or deleted")
struct HostileTreeCLITests {
  let plainManifest = """
    version: 1
    lanes:
      - name: hello
        sh: echo hello
    """

  /// Finding 1: a merged store whose log id and log path lead out of the tree is refused whole, blaming that store.
  @Test func mergeRefusesAStoreThatLeadsOutOfTheTree() throws {
    let tree = try FixtureTree(manifest: plainManifest)
    let outside = try OutsideFolder()
    try outside.write("victim/keep.txt", "keep")
    try outside.write("secret.txt", "TOPSECRET")
    let evil = tree.url.appendingPathComponent("evil.sqlite").path
    let store = try HistoryStore(path: evil)
    try store.record(hostileRun(id: "evil-1", logID: "../../../../../../../../..\(outside.url.path)/victim", started: 1),
                     steps: [hostileStep(runID: "evil-1", lane: "hello", logPath: "../../../../../../../../..\(outside.url.path)/secret.txt")])
    #expect(try tree.duet("verify").status == 0)
    let merged = try tree.duet("history", "merge", "evil.sqlite")
    #expect(merged.status == 1)
    #expect(merged.stderr.contains("evil.sqlite: refusing the whole store, nothing merged from it: run evil-1: log_id"))
    #expect(!merged.stderr.contains(".duet/history.sqlite"))
    #expect(try HistoryStore(path: tree.url.appendingPathComponent(".duet/history.sqlite").path).runCount() == 1)
  }

  /// Finding 1: rows already in the store (merged by an older duet) are checked again before `logs` reads or `prune` deletes.
  @Test func logsAndPruneCheckRowsAgainBeforeUse() throws {
    let tree = try FixtureTree(manifest: plainManifest)
    let outside = try OutsideFolder()
    try outside.write("victim/keep.txt", "keep")
    try outside.write("secret.txt", "TOPSECRET")
    #expect(try tree.duet("verify").status == 0)
    let store = try HistoryStore(path: tree.url.appendingPathComponent(".duet/history.sqlite").path)
    let up = String(repeating: "../", count: 12)
    try store.record(hostileRun(id: "evil-old", logID: "\(up)\(outside.url.path.dropFirst())/victim", started: 2),
                     steps: [hostileStep(runID: "evil-old", lane: "other", logPath: nil)])
    try store.record(hostileRun(id: "evil-new", logID: "20261202-181700-3f2a1b", started: Date().timeIntervalSince1970 + 100),
                     steps: [hostileStep(runID: "evil-new", lane: "hello", logPath: ".duet/logs/20261202-181700-3f2a1b/\(up)\(outside.url.path.dropFirst())/secret.txt")])
    let logs = try tree.duet("logs", "hello")
    #expect(logs.status == 1)
    #expect(!logs.stdout.contains("TOPSECRET"))
    #expect(logs.stderr.contains("is not a log file in .duet/logs/"))
    let prune = try tree.duet("history", "prune", "--keep", "2")
    #expect(prune.status == 0)
    #expect(prune.stderr.contains("not a run id"))
    #expect(outside.exists("victim/keep.txt"))
  }

  /// Finding 2: `.duet` a link to another folder: verify refuses (exit 2) and neither writes a store there nor trims its logs.
  @Test func stateFolderLinkIsRefused() throws {
    let tree = try FixtureTree(manifest: plainManifest)
    let outside = try OutsideFolder()
    for index in 0..<60 { try outside.write("logs/2026\(String(format: "%04d", index))-000000-000000/x.log", "x") }
    try tree.link(".duet", to: outside.url.path)
    let before = outside.listing()
    let run = try tree.duet("verify")
    #expect(run.status == 2)
    #expect(run.stderr.contains("refusing .duet: it is a symbolic link"))
    #expect(outside.listing() == before)
    let history = try tree.duet("history")
    #expect(history.status == 1)
    #expect(history.stderr.contains(".duet: it is a symbolic link"))
    #expect(outside.listing() == before)
  }

  /// Finding 2: `design-tokens --check` does not follow an output that is a link to a file outside the tree.
  @Test func tokenCheckDoesNotFollowAnOutputLink() throws {
    let tree = try FixtureTree()
    let outside = try OutsideFolder()
    try outside.write("passwd", "root:TOPSECRET:0:0\n")
    try tree.write("parity/design-tokens.yaml", """
      version: 1
      swift:
        output: ios/Generated
        engine: DuetTheming
        theme: MainTheme
      colors:
        - tokens:
            - name: ink
              value: "#000000"
      """)
    #expect(try tree.duet("design-tokens").status == 0)
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("ios/Generated/SemanticColor.swift"))
    try tree.link("ios/Generated/SemanticColor.swift", to: outside.url.appendingPathComponent("passwd").path)
    let check = try tree.duet("design-tokens", "--check")
    #expect(check.status == 1)
    #expect(!check.stdout.contains("TOPSECRET") && !check.stderr.contains("TOPSECRET"))
    #expect(check.stdout.contains("ios/Generated/SemanticColor.swift"))
    #expect(check.stdout.contains("symbolic link"))
  }

  /// Finding 2: a lane whose `dir:` is a link out of the tree fails without running, shell lane or built-in.
  @Test func laneDirLinkIsRefused() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: shell
          sh: touch ran-here
          dir: outlink
        - name: tokens
          run: design-tokens --check
          dir: outlink
      """)
    let outside = try OutsideFolder()
    try outside.write("parity/design-tokens.yaml", "version: 1\nswift: {output: gen, engine: E, theme: T}\ncolors: []\n")
    try tree.link("outlink", to: outside.url.path)
    let run = try tree.duet("verify")
    #expect(run.status == 1)
    #expect(!outside.exists("ran-here"))
    #expect(!outside.exists("gen"))
    #expect(run.stdout.contains("shell failed (dir 'outlink': it is a symbolic link)"))
    #expect(run.stdout.contains("tokens failed (dir 'outlink': it is a symbolic link)"))
  }

  /// Finding 2: `inputs:` with `../` is a manifest error naming its line and column.
  @Test func inputsOutsideTheTreeAreRefused() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: peek
          sh: 'true'
          inputs: ["../secret", "../../dev/zero"]
      """)
    let run = try tree.binary("verify", timeout: 20)
    #expect(run.status == 2)
    #expect(run.stderr.contains("lanes/manifest.yaml:5:"))
    #expect(run.stderr.contains("'inputs'"))
  }

  /// Finding 4: an input that is a FIFO is skipped by kind, not opened: verify finishes.
  @Test func fifoInputDoesNotHang() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: piped
          sh: 'true'
          inputs: [src/pipe, src/*]
      """)
    try tree.write("src/a.txt", "a")
    #expect(mkfifo(tree.url.appendingPathComponent("src/pipe").path, 0o644) == 0)
    let run = try tree.binary("verify", timeout: 20)
    #expect(run.status == 0)
  }

  /// Finding 4: a FIFO where duet reads a mock file, a token output or the workflow is refused by kind, not opened: nothing blocks.
  @Test func fifoOutputsDoNotHang() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      mocks:
        - output: Tests/Mocks/M.swift
          sources: [src]
      lanes:
        - name: a
          sh: 'true'
      """)
    try tree.write("src/A.swift", "struct A {}\n")
    try tree.write("parity/design-tokens.yaml", "version: 1\nswift: {output: gen, engine: E, theme: T}\ncolors:\n  - tokens:\n      - {name: ink, value: \"#000000\"}\n")
    for path in ["Tests/Mocks/M.swift", "gen/SemanticColor.swift", ".github/workflows/duet.yml"] {
      try FileManager.default.createDirectory(at: tree.url.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
      #expect(mkfifo(tree.url.appendingPathComponent(path).path, 0o644) == 0)
    }
    for arguments in [["mocks", "--check"], ["mocks"], ["design-tokens"], ["design-tokens", "--check"], ["workflow", "github", "--check"]] {
      let end = try runDuetSample(arguments, in: tree.url)
      #expect(!end.timedOut && !end.signaled && [1, 2].contains(end.status), "duet \(arguments.joined(separator: " ")): \(end)")
    }
    let check = try tree.binary("mocks", "--check", timeout: 20)
    #expect((check.stdout + check.stderr).contains("it is a FIFO (named pipe), not a regular file"))
  }
}
