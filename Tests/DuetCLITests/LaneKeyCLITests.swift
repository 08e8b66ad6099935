import Foundation
import Testing

/// Issue 51, items 6 and 7: a lane's key holds all it sees and is held to:
/// its name (`DUET_LANE`) and its timeout.
@Suite("The key holds the lane's name and timeout, end to end")
struct LaneKeyCLITests {
  /// Two lanes with one command and one set of inputs are not served each
  /// other's passes: a lane that never ran never reports `cached`.
  @Test func twinLanesAreNotServedEachOthersPass() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: a, sh: 'echo "$DUET_LANE" >> ran.txt', inputs: [src/**]}
        - {name: b, sh: 'echo "$DUET_LANE" >> ran.txt', inputs: [src/**]}
      """)
    try tree.write("src/x.txt", "x")
    #expect(try tree.duet("verify", "--lane", "a").status == 0)
    let b = try tree.duet("verify", "--lane", "b")
    #expect(b.status == 0)
    #expect(!b.stdout.contains("cached"), "\(b.stdout)")
    #expect(try tree.read("ran.txt") == "a\nb\n")
    #expect(try tree.duet("verify", "--lane", "b").stdout.contains("b     cached"))
  }

  /// Lowering `timeout:` below what a pass took: the pass no longer serves,
  /// the lane runs again and times out; the dry run says why.
  @Test func aLowerTimeoutIsNotServedAnOldPass() throws {
    func manifest(_ timeout: String) -> String {
      // A sleep that is the point: the lane takes longer than the lowered timeout.
      "version: 1\nlanes:\n  - {name: slow, sh: 'sleep 1.3', inputs: [src/**], timeout: \(timeout)}\n"
    }
    let tree = try FixtureTree(manifest: manifest("1m"))
    try tree.write("src/x.txt", "x")
    #expect(try tree.duet("verify").status == 0)
    #expect(try tree.duet("verify").stdout.contains("slow  cached"))
    try tree.write("lanes/manifest.yaml", manifest("1s"))
    let dry = try tree.duet("verify", "--dry-run")
    #expect(dry.stdout.contains("timeout changed (60.000 s to 1.000 s)"), "\(dry.stdout)")
    let run = try tree.duet("verify")
    #expect(run.status == 1, "served a pass longer than the timeout: \(run.stdout)")
    #expect(run.stdout.contains("slow  timeout"), "\(run.stdout)")
  }
}
