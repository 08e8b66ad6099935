import Foundation
import Testing

/// Issue 38, item 6: a Gradle module whose tests read a Duet tree's golden
/// fixtures (`parity/fixtures`) has them in its lane's inputs, so a change to
/// a fixture alone runs the lane again instead of serving its cached pass.
@Suite("Gradle lanes list the parity fixtures their tests read")
struct ParityFixturesInputsCLITests {
  func tree() throws -> FixtureTree {
    let tree = try FixtureTree()
    try tree.write("src-kmp/settings.gradle.kts", "include(\":home\")\ninclude(\":core\")\n")
    try tree.write("src-kmp/home/build.gradle.kts", "plugins { kotlin(\"jvm\") }\n")
    try tree.write("src-kmp/home/src/main/kotlin/Home.kt", "class Home\n")
    try tree.write("src-kmp/home/src/test/kotlin/HomeReplayTest.kt",
                   "import java.io.File\nclass HomeReplayTest { val golden = File(\"../../parity/fixtures/home\") }\n")
    try tree.write("src-kmp/core/build.gradle.kts", "plugins { kotlin(\"jvm\") }\n")
    try tree.write("src-kmp/core/src/test/kotlin/CoreTest.kt", "class CoreTest\n")
    try tree.write("parity/fixtures/home/welcome.json", "{\"state\": \"Free\"}\n")
    return tree
  }

  func inputs(_ tree: FixtureTree, lane: String) throws -> [String] {
    let run = try tree.duet("lanes", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let lanes = try #require(object["lanes"] as? [[String: Any]])
    return try #require(lanes.first { $0["name"] as? String == lane }?["inputs"] as? [String])
  }

  /// `init` puts `parity/fixtures/**` in the inputs of the module whose tests name it, not in another's.
  @Test func initListsTheFixtures() throws {
    let tree = try tree()
    #expect(try tree.duet("init").status == 0)
    #expect(try inputs(tree, lane: "kotlin-home").contains("parity/fixtures/**"))
    #expect(try !inputs(tree, lane: "kotlin-core").contains("parity/fixtures/**"))
  }

  /// With those inputs, a fixture-only change runs the lane again.
  @Test func aFixtureChangeIsNotCached() throws {
    let tree = try tree()
    #expect(try tree.duet("init").status == 0)
    let written = try tree.read("lanes/manifest.yaml")
    // The lane as init wrote it, with a command that runs here (no Gradle).
    try tree.write("lanes/manifest.yaml", written.replacingOccurrences(of: "gradle :home:test --console=plain", with: "cat ../parity/fixtures/home/welcome.json")
      .replacingOccurrences(of: "requires: [gradle, java]", with: "requires: []"))
    let first = try tree.duet("verify", "--lane", "kotlin-home")
    let pinned = try tree.read("lanes/manifest.yaml")
    #expect(first.stdout.contains("✓ kotlin-home"), "\(first.stdout)\n\(pinned)")
    #expect(try tree.duet("verify", "--lane", "kotlin-home").stdout.contains("kotlin-home cached"))
    try tree.write("parity/fixtures/home/welcome.json", "{\"state\": \"Paid\"}\n")
    let again = try tree.duet("verify", "--lane", "kotlin-home")
    #expect(!again.stdout.contains("kotlin-home cached"), "\(again.stdout)")
  }
}
