import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

@Suite("Input fingerprints")
struct InputFingerprintTests {
  func manifest(_ lanes: [Lane]) -> Manifest { Manifest(path: "m", lanes: lanes) }

  func lane(_ name: String, inputs: [String] = [], needs: [String] = [], command: String = "make") -> Lane {
    var lane = Lane(name: name, step: .shell(command), location: SourceLocation(file: "m", line: 1, column: 1))
    lane.inputs = inputs
    lane.needs = needs
    return lane
  }

  /// Issue 51, item 14: duet's secret variables, withheld from every lane,
  /// leave no trace in a key that lists them under `env-inputs:` (the history
  /// kept the SHA-256 of the signing key's value); another variable still does.
  @Test func aWithheldSecretLeavesNoHashInTheKey() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.txt", "one")
    var reader = lane("reader", inputs: ["src/a.txt"])
    reader.envInputs = ["DUET_REMOTE_CACHE_KEY", "FLAVOR"]
    func parts(_ environment: [String: String]) -> FingerprintParts? {
      InputFingerprint.compute(manifest: manifest([reader]), builtins: .standard, root: tree.url, selected: [0], git: GitStateOnce { nil },
                               duetVersion: "t", environment: environment).parts[0]
    }
    let one = try #require(parts(["DUET_REMOTE_CACHE_KEY": "hunter2", "FLAVOR": "a"]))
    let other = try #require(parts(["DUET_REMOTE_CACHE_KEY": "swordfish", "FLAVOR": "a"]))
    #expect(one.envInputs["DUET_REMOTE_CACHE_KEY"] == "withheld from lanes")
    #expect(one.fingerprint == other.fingerprint)
    #expect(!"\(one)".contains(Digest.sha256("hunter2")))
    #expect(parts(["DUET_REMOTE_CACHE_KEY": "hunter2", "FLAVOR": "b"])?.fingerprint != one.fingerprint)
  }

  /// The fingerprint follows the inputs' content, the command and the needs, and nothing else.
  @Test func followsInputsCommandAndNeeds() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.txt", "one")
    let lanes = [lane("gen", inputs: ["src/**"]), lane("use", inputs: ["src/a.txt"], needs: ["gen"])]
    func compute(_ lanes: [Lane]) -> [Int: String] {
      InputFingerprint.compute(manifest: manifest(lanes), builtins: .standard, root: tree.url, selected: [0, 1], git: GitStateOnce { nil }, duetVersion: "t", environment: [:]).fingerprints
    }
    let first = compute(lanes)
    #expect(first.count == 2)
    #expect(compute(lanes) == first)
    try tree.write("src/a.txt", "two")
    let changed = compute(lanes)
    #expect(changed[0] != first[0] && changed[1] != first[1])
    try tree.write("src/a.txt", "one")
    #expect(compute(lanes) == first)
    var other = lanes
    other[0] = lane("gen", inputs: ["src/**"], command: "make all")
    let recommanded = compute(other)
    #expect(recommanded[0] != first[0])
    #expect(recommanded[1] != first[1])
  }

  /// Without inputs a lane is fingerprinted by git state, or not at all, and is never cacheable.
  @Test func fallbackToGit() throws {
    let tree = try TemporaryFolder()
    let lanes = [lane("plain")]
    let none = InputFingerprint.compute(manifest: manifest(lanes), builtins: .standard, root: tree.url, selected: [0], git: GitStateOnce { nil }, duetVersion: "t", environment: [:])
    #expect(none.fingerprints.isEmpty && none.cacheable.isEmpty)
    let git = GitState(commit: "abc", changes: "def")
    let withGit = InputFingerprint.compute(manifest: manifest(lanes), builtins: .standard, root: tree.url, selected: [0], git: GitStateOnce { git }, duetVersion: "t", environment: [:])
    #expect(withGit.fingerprints[0] != nil && withGit.cacheable.isEmpty)
    let moved = InputFingerprint.compute(manifest: manifest(lanes), builtins: .standard, root: tree.url, selected: [0], git: GitStateOnce { GitState(commit: "abc", changes: "xyz") }, duetVersion: "t", environment: [:])
    #expect(moved.fingerprints[0] != withGit.fingerprints[0])
  }

  /// Git is read once however many lanes fall back to it, and not at all when every lane has inputs.
  @Test func gitIsReadOnceAndOnlyWhenNeeded() throws {
    let tree = try TemporaryFolder()
    var reads = 0
    let once = GitStateOnce { reads += 1; return GitState(commit: "abc", changes: "def") }
    let two = InputFingerprint.compute(manifest: manifest([lane("a"), lane("b")]), builtins: .standard, root: tree.url, selected: [0, 1], git: once, duetVersion: "t", environment: [:])
    _ = InputFingerprint.compute(manifest: manifest([lane("a")]), builtins: .standard, root: tree.url, selected: [0], git: once, duetVersion: "t", environment: [:])
    #expect(two.fingerprints.count == 2 && reads == 1)
    try "x".write(to: tree.url.appendingPathComponent("f.txt"), atomically: true, encoding: .utf8)
    let withInputs = lane("c", inputs: ["f.txt"])
    let unasked = GitStateOnce { Issue.record("git read for a lane with inputs"); return nil }
    _ = InputFingerprint.compute(manifest: manifest([withInputs]), builtins: .standard, root: tree.url, selected: [0], git: unasked, duetVersion: "t", environment: [:])
    #expect(!unasked.asked)
  }
}
