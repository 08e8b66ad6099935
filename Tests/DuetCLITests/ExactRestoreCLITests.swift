import Foundation
import Testing

/// Issue 51, item 10: a restored output folder holds exactly what the pass
/// recorded. Back on branch v2 after v1, v1's `Legacy.swift` no longer stays
/// in the generated folder (a consumer would fail where a clean tree passes).
@Suite("Restores are exact, end to end")
struct ExactRestoreCLITests {
  @Test func aRestoredFolderHoldsOnlyWhatThePassRecorded() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: gen
          inputs: [src/**]
          outputs: [gen]
          sh: |
            rm -rf gen && mkdir -p gen/sub && echo "let a = $(cat src/v.txt)" > gen/A.swift
            if [ "$(cat src/v.txt)" = 1 ]; then echo legacy > gen/Legacy.swift; echo old > gen/sub/Old.swift; fi
      """)
    try tree.write("src/v.txt", "1")
    #expect(try tree.duet("verify").status == 0)
    #expect(tree.exists("gen/Legacy.swift"))
    try tree.write("src/v.txt", "2")
    #expect(try tree.duet("verify").status == 0)
    #expect(!tree.exists("gen/Legacy.swift"))
    // Back to v1: served from the cache, Legacy.swift restored.
    try tree.write("src/v.txt", "1")
    let v1 = try tree.duet("verify")
    #expect(v1.stdout.contains("gen   cached"), "\(v1.stdout)")
    #expect(tree.exists("gen/Legacy.swift") && tree.exists("gen/sub/Old.swift"))
    // And to v2 again: served, and exactly v2's outputs.
    try tree.write("src/v.txt", "2")
    let v2 = try tree.duet("verify")
    #expect(v2.stdout.contains("gen   cached"), "\(v2.stdout)")
    #expect(!tree.exists("gen/Legacy.swift"), "a file the pass never recorded stayed in its output folder")
    #expect(!tree.exists("gen/sub/Old.swift"))
    #expect(try tree.read("gen/A.swift") == "let a = 2\n")
  }
}
