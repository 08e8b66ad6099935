import Foundation
import Testing
@testable import DuetApp
@testable import DuetHooks
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// What the pre-push hook verifies, from git's lines, and which lanes a change touches.
@Suite("Pre-push plans and affected lanes")
struct PrePushTests {
  let zero = String(repeating: "0", count: 40)
  let a = String(repeating: "a", count: 40)
  let b = String(repeating: "b", count: 40)

  /// An update is verified since the remote's commit; a new branch since the remote's default branch.
  @Test func bases() {
    let update = PrePush.parse("refs/heads/main \(a) refs/heads/main \(b)\n")
    #expect(PrePush.plan(update, remote: "origin") { _ in true } == .since(b, "origin's refs/heads/main"))
    let fresh = PrePush.parse("refs/heads/topic \(a) refs/heads/topic \(zero)\n")
    #expect(PrePush.plan(fresh, remote: "origin") { $0 == "refs/remotes/origin/main" } == .since("refs/remotes/origin/main", "origin's default branch (origin/main)"))
    guard case .everything = PrePush.plan(fresh, remote: "origin", commitExists: { _ in false }) else {
      Issue.record("a new branch with no known default branch verifies everything")
      return
    }
  }

  /// A deletion verifies nothing; a remote commit this clone lacks verifies everything.
  @Test func deletionsAndUnknownCommits() {
    #expect(PrePush.plan(PrePush.parse("(delete) \(zero) refs/heads/old \(b)"), remote: "origin") { _ in true } == .nothing("only deletions are being pushed"))
    #expect(PrePush.plan([], remote: "origin") { _ in true } == .nothing("nothing is being pushed"))
    guard case .everything(let why) = PrePush.plan(PrePush.parse("refs/heads/main \(a) refs/heads/main \(b)"), remote: "origin", commitExists: { _ in false }) else {
      Issue.record("an unknown remote commit verifies everything")
      return
    }
    #expect(why.contains("fetch first"))
  }

  /// Inputs and covers select lanes; needs carry the selection; a lane declaring neither always runs.
  @Test func affectedLanes() {
    func lane(_ name: String, inputs: [String] = [], covers: [String] = [], needs: [String] = []) -> Lane {
      var lane = Lane(name: name, step: .shell("true"), location: SourceLocation(file: "m", line: 1, column: 1))
      lane.inputs = inputs
      lane.covers = covers
      lane.needs = needs
      return lane
    }
    let manifest = Manifest(path: "m", lanes: [
      lane("kotlin", covers: ["src-kmp/*"]), lane("swift", inputs: ["src-ios/**/*.swift"]),
      lane("after", inputs: ["x/**"], needs: ["kotlin"]), lane("lint"),
    ])
    let decisions = AffectedLanes.decide(manifest: manifest, selected: [0, 1, 2, 3], changed: ["src-kmp/home/src/A.kt"])
    #expect(decisions[0] == .runs("changed: src-kmp/home/src/A.kt"))
    #expect(decisions[1] == .unaffected)
    #expect(decisions[2] == .runs("a need runs (kotlin)"))
    #expect(decisions[3] == .runs("declares no inputs or covers, so it always runs"))
  }

  /// `git diff --name-status -z` gives one path per entry and both for a rename.
  @Test func nameStatus() {
    let data = Data("M\0a.txt\0R087\0old.txt\0new.txt\0D\0gone.txt\0".utf8)
    #expect(ChangedFiles.parseNameStatus(data) == ["a.txt", "old.txt", "new.txt", "gone.txt"])
  }
}
