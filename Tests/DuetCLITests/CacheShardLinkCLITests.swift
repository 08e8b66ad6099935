import Foundation
import Testing

/// Issue 51, item 13: `duet cache verify` and `prune` walk only the store's
/// real folders: a shard folder replaced by a link to a folder elsewhere is
/// refused, and nothing there is deleted.
@Suite("The store's maintenance never follows a linked shard, end to end")
struct CacheShardLinkCLITests {
  @Test func verifyAndPruneLeaveALinkedShardsTargetAlone() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: gen, inputs: [src/**], outputs: [out], sh: 'mkdir -p out && echo generated > out/a.txt'}
      """)
    try tree.write("src/x.txt", "x")
    #expect(try tree.duet("verify").status == 0)
    // Elsewhere: a folder holding a file named like a blob whose bytes are not its name.
    let outside = tree.url.appendingPathComponent("outside")
    let fake = String(repeating: "ab", count: 32)
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    try Data("precious".utf8).write(to: outside.appendingPathComponent(fake))
    let shard = tree.url.appendingPathComponent(".duet/cache/cas/ab")
    try? FileManager.default.removeItem(at: shard)
    try FileManager.default.createSymbolicLink(at: shard, withDestinationURL: outside)
    #expect(try tree.duet("cache", "verify").status != 2)
    #expect(FileManager.default.fileExists(atPath: outside.appendingPathComponent(fake).path), "cache verify deleted a file outside the store")
    _ = try tree.duet("cache", "prune", "--max-size", "0")
    #expect(FileManager.default.fileExists(atPath: outside.appendingPathComponent(fake).path), "cache prune deleted a file outside the store")
  }
}
