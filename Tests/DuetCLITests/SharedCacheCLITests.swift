import Foundation
import Testing

/// A cache shared across CI runners: each lane job records into its own store,
/// the stores are merged (their passes kept as cache entries), and the next run
/// on a fresh checkout restores the merge and those entries.
@Suite("A cache shared across runners")
struct SharedCacheCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: tokens
        sh: cat tokens.txt
        inputs: [tokens.txt]
      - name: kotlin
        sh: tool
        needs: [tokens]
        requires: [tool]
        inputs: [src/*.kt]
      - name: swift
        sh: echo "$SDK_VERSION"
        inputs: [src/*.swift]
        env-inputs: [SDK_VERSION]
    """

  /// A fresh checkout of the same tree in its own folder, as a CI runner has.
  func checkout() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: SharedCacheCLITests.manifest)
    try tree.write("tokens.txt", "t\n")
    try tree.write("src/A.kt", "fun a() {}\n")
    try tree.write("src/A.swift", "struct A {}\n")
    try tree.write("bin/tool", "#!/bin/sh\necho tool 1\n")
    chmod(tree.url.appendingPathComponent("bin/tool").path, 0o755)
    return tree
  }

  func environment(_ tree: FixtureTree, store: URL, sdk: String = "17") -> [String: String] {
    ["DUET_HISTORY": store.path, "PATH": tree.url.appendingPathComponent("bin").path + ":/usr/bin:/bin", "SDK_VERSION": sdk]
  }

  /// Three lane jobs on three runners, a merge, then a second CI run from the
  /// merged store: unchanged lanes are cached there; a lane whose required
  /// program changed, or whose env-input changed, runs again and says why.
  @Test func mergedStoresServeTheNextRun() throws {
    let stores = try FixtureTree()
    var parts: [URL] = []
    for lane in ["tokens", "kotlin", "swift"] {
      let runner = try checkout()
      let store = stores.url.appendingPathComponent("\(lane).sqlite")
      let run = try runner.duet("verify", "--lane", lane, "--no-deps", environment: environment(runner, store: store))
      #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
      parts.append(store)
    }
    let merged = stores.url.appendingPathComponent("merged.sqlite")
    let mergingJob = try checkout()
    let mergeRun = try mergingJob.duet(arguments: ["history", "merge"] + parts.map(\.path), environment: ["DUET_HISTORY": merged.path])
    #expect(mergeRun.status == 0, "\(mergeRun.stdout)\(mergeRun.stderr)")

    // Issue 51: the merge keeps the passes as cache entries, which travel with
    // the merged store (the generated CI caches `.duet/cache/ac` beside it); the
    // entry, not the history, is what serves a lane.
    #expect(mergeRun.stdout.contains("duet history merge: 3 pass(es) of lanes without outputs kept as cache entries"), "\(mergeRun.stdout)")
    /// A fresh checkout with the merging job's entries, as the next pipeline restores them.
    func restoredCheckout() throws -> FixtureTree {
      let tree = try checkout()
      #expect(try shell("mkdir -p .duet/cache && cp -R '\(mergingJob.url.path)/.duet/cache/ac' .duet/cache/", in: tree.url).status == 0)
      return tree
    }
    let bare = try checkout()
    let without = try bare.duet("verify", "--dry-run", environment: environment(bare, store: merged))
    #expect(without.stdout.contains("tokens  runs  no cache entry holds its pass"), "the history alone serves nothing: \(without.stdout)")

    let next = try restoredCheckout()
    let second = try next.duet("verify", environment: environment(next, store: merged))
    #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
    #expect(second.lines.last(where: { !$0.isEmpty }) == "duet verify: PASS (3 cached)", "\(second.stdout)")

    let upgraded = try restoredCheckout()
    try upgraded.write("bin/tool", "#!/bin/sh\necho tool 2\n")
    let dry = try upgraded.duet("verify", "--dry-run", environment: environment(upgraded, store: merged, sdk: "18"))
    #expect(dry.stdout.contains("tokens  cached"), "\(dry.stdout)")
    // Issue 56: a merged store keeps each fingerprint's parts (schema 6), so the reason is exact here too.
    #expect(dry.stdout.contains("kotlin  runs    a required program changed (tool)"), "\(dry.stdout)")
    #expect(dry.stdout.contains("swift   runs    env-inputs changed (SDK_VERSION)"), "\(dry.stdout)")
    // With the parts of the last run kept (the store of the runner itself), the reason is exact.
    let local = stores.url.appendingPathComponent("local.sqlite")
    let runner = try checkout()
    #expect(try runner.duet("verify", environment: environment(runner, store: local)).status == 0)
    try runner.write("bin/tool", "#!/bin/sh\necho tool 2\n")
    let exact = try runner.duet("verify", "--dry-run", environment: environment(runner, store: local, sdk: "18"))
    #expect(exact.stdout.contains("kotlin  runs    a required program changed (tool)"), "\(exact.stdout)")
    #expect(exact.stdout.contains("swift   runs    env-inputs changed (SDK_VERSION)"), "\(exact.stdout)")
  }

  /// A `.duet` that links out of the tree takes no entry the merge keeps: the
  /// merge warns and writes nothing there (it wrote through the link before).
  @Test func aLinkedStateFolderTakesNoKeptPass() throws {
    let stores = try FixtureTree()
    let runner = try checkout()
    let store = stores.url.appendingPathComponent("tokens.sqlite")
    #expect(try runner.duet("verify", "--lane", "tokens", "--no-deps", environment: environment(runner, store: store)).status == 0)
    let merging = try checkout()
    let outside = try FixtureTree()
    #expect(symlink(outside.url.path, merging.url.appendingPathComponent(".duet").path) == 0)
    let merged = stores.url.appendingPathComponent("merged.sqlite")
    let merge = try merging.duet(arguments: ["history", "merge", store.path], environment: ["DUET_HISTORY": merged.path])
    #expect(merge.stderr.contains("duet history merge: warning: no pass kept as a cache entry:"), "\(merge.stdout)\(merge.stderr)")
    #expect(!FileManager.default.fileExists(atPath: outside.url.appendingPathComponent("cache/ac").path), "an entry was written through the link")
  }
}
