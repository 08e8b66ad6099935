import Foundation
import Testing

/// Issue 50, item 7: one place resolves a lane name for every command that
/// takes one; a typo is exit 2 with the nearest lane, never an empty answer.
@Suite("Lane names are resolved in one place, end to end")
struct LaneNamesCLITests {
  @Test func aMisspeltLaneIsAUsageErrorEverywhere() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: unit, sh: echo ok}\n")
    #expect(try tree.duet("verify").status == 0)
    for arguments in [["flaky", "--tests", "--lane", "unti"], ["stats", "--tests", "--lane", "unti"], ["history", "--lane", "unti"],
                      ["logs", "unti"], ["verify", "--lane", "unti"]] {
      let run = try tree.duet(arguments: arguments)
      #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
      #expect(run.stderr.contains("did you mean 'unit'?"), "\(arguments): \(run.stderr)")
    }
    #expect(try tree.duet("flaky", "--tests", "--lane", "unit").status == 0)
    #expect(try tree.duet("stats", "--tests", "--lane", "unit").status == 0)
  }
}
