@testable import DuetSupport
import Foundation
import Testing
@testable import DuetCache

/// Issue 51, items 11 and 12: a restore never makes a link out of the lane's
/// own outputs, and duet's own temporary files never become outputs.
@Suite("Restores stay in the lane's outputs")
struct RestoreBoundsTests {
  func entry(_ outputs: [ActionEntry.Output]) -> ActionEntry {
    ActionEntry(key: String(repeating: "e", count: 64), lane: "l", duetVersion: "0", strict: false, partial: false, outputs: outputs, log: nil)
  }

  /// An unsigned entry restoring `build/gen -> ../.git/hooks` would let the
  /// lane's next run write git hooks: refused, as is any link to the tree
  /// outside the outputs; a link between the outputs is made.
  @Test func aLinkMayPointOnlyInsideTheLanesOutputs() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    try tree.write(".git/hooks/README", "hooks\n")
    for (path, target) in [("build/gen", "../.git/hooks"), ("build/gen", "../.duet"), ("build/gen", "../src"), ("build/gen/x", "../..")] {
      let result = OutputRestore.restore(entry([.link(path: path, target: target)]), declared: ["build/gen"], root: tree.url, store: store)
      #expect(result == .cannot("its cache entry has \(path) link to \(target), outside the lane's outputs"), "\(path) -> \(target)")
      #expect(systemDisk.linkTarget(tree.url.appendingPathComponent(path).path) == nil)
    }
    let inside = entry([.link(path: "build/current", target: "v2/app"), .link(path: "build/v2/up", target: "../current"),
                        .link(path: "dist/app", target: "../build/current")])
    #expect(OutputRestore.restore(inside, declared: ["build", "dist"], root: tree.url, store: store) == .restored(files: 3))
    #expect(systemDisk.linkTarget(tree.url.appendingPathComponent("dist/app").path) == "../build/current")
  }

  /// A restore killed between writing its temporary and renaming it leaves
  /// `.duet-tmp-*` in the output folder: the next pass does not store it, and
  /// removes it.
  @Test func duetsTemporaryFilesNeverBecomeOutputs() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    try tree.write("build/app.bin", "app")
    try tree.write("build/.duet-tmp-a1B2c3", "half a restore")
    try tree.write("build/sub/.duet-tmp-Zz9y8X", "another")
    let found = OutputFiles.capture(["build"], root: tree.url, store: store)
    #expect(found.outputs.map(\.path) == ["build/app.bin"])
    #expect(found.problems.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: tree.url.appendingPathComponent("build/.duet-tmp-a1B2c3").path))
    #expect(!FileManager.default.fileExists(atPath: tree.url.appendingPathComponent("build/sub/.duet-tmp-Zz9y8X").path))
  }

  /// Beside a declared file output, a temporary a killed restore left is
  /// removed by the next restore; a file of the lane's own is not.
  @Test func aRestoreRemovesTemporariesBesideADeclaredFile() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    try tree.write("dist/app.zip", "zip")
    let found = OutputFiles.capture(["dist/app.zip"], root: tree.url, store: store)
    try tree.write("dist/.duet-tmp-q1w2e3", "half")
    try tree.write("dist/notes.txt", "the lane's")
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("dist/app.zip"))
    #expect(OutputRestore.restore(entry(found.outputs), declared: ["dist/app.zip"], root: tree.url, store: store) == .restored(files: 1))
    #expect(!FileManager.default.fileExists(atPath: tree.url.appendingPathComponent("dist/.duet-tmp-q1w2e3").path))
    #expect(FileManager.default.fileExists(atPath: tree.url.appendingPathComponent("dist/notes.txt").path))
    #expect(try String(contentsOf: tree.url.appendingPathComponent("dist/app.zip"), encoding: .utf8) == "zip")
  }
}
