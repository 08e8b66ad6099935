import Foundation
import Testing
@testable import DuetApp
@testable import DuetModel
@testable import DuetRun
@testable import DuetSupport

/// Issue 54, item 11 (a): the one lane check opens the history once, however
/// many names the manifest lacks, and only when one does.
@Suite("The lane check opens the history at most once")
struct KnownLanesTests {
  static func manifest() throws -> Manifest {
    let text = "version: 1\nlanes:\n  - {name: unit, sh: echo ok}\n  - {name: ui, sh: echo ok}\n"
    return try ManifestLoader.parse(try YAMLParser.parse(text, file: "lanes/manifest.yaml"), path: "lanes/manifest.yaml", builtins: [:])
  }

  @Test func theHistoryIsOpenedOnceForEveryNameTheManifestLacks() throws {
    let opens = Locked(0)
    let open: () -> KnownLanes.History? = {
      opens.withLock { $0 += 1 }
      return { $0.hasPrefix("old-") }
    }
    let words = ["old-a", "unit", "old-b", "old-c"].map { LaneWord($0, origin: "--lane") }
    try KnownLanes.check(words, manifest: try Self.manifest(), openHistory: open, command: "history")
    #expect(opens.withLock { $0 } == 1)
  }

  @Test func theHistoryIsNotOpenedWhenTheManifestKnowsEveryName() throws {
    let opens = Locked(0)
    let open: () -> KnownLanes.History? = {
      opens.withLock { $0 += 1 }
      return nil
    }
    try KnownLanes.check(["unit", "ui"].map { LaneWord($0, origin: nil) }, manifest: try Self.manifest(), openHistory: open, command: "logs")
    #expect(opens.withLock { $0 } == 0)
    let error = #expect(throws: UsageError.self) {
      try KnownLanes.check([LaneWord("gone", origin: nil), LaneWord("gone2", origin: nil)], manifest: try Self.manifest(), openHistory: open, command: "logs")
    }
    #expect(error?.message.hasPrefix("no lane 'gone' in lanes/manifest.yaml or the history") == true, "\(String(describing: error))")
    #expect(opens.withLock { $0 } == 1)
  }

  /// The manifest the lane check loaded is the one verify runs: it is not read
  /// again. The file changes after the check; a second read would find no lane
  /// 'unit' and run the failing 'other'.
  @Test func verifyRunsTheManifestTheLaneCheckLoaded() throws {
    let tree = try TemporaryFolder()
    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n  - {name: unit, sh: echo ok}\n")
    let loaded = try KnownLanes.check([LaneWord("unit", origin: "--lane")], root: tree.url, environment: [:], orHistory: false, command: "verify")
    #expect(loaded?.manifest.lanes.map(\.name) == ["unit"])
    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n  - {name: other, sh: 'exit 1'}\n")
    let invocation = Invocation(arguments: ["verify", "--lane", "unit"], workingDirectory: tree.url, environment: ["PATH": "/usr/bin:/bin"],
                                standardInput: Data(), executable: URL(fileURLWithPath: "/duet"), ownsProcess: false)
    let call = CommandCall(invocation: invocation, console: Console(environment: [:], output: .buffers()), manifest: loaded)
    var options = VerifyCommand.Options()
    options.lanes = ["unit"]
    options.noCache = true
    let request = try VerifyCommand.request(options, in: call)
    guard case .ran(let verdict, _) = try verify(request) else {
      Issue.record("expected a run")
      return
    }
    #expect(verdict.lanes.map(\.name) == ["unit"])
    #expect(verdict.exitCode == 0)
  }
}
