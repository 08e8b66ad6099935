import Foundation
import Testing

/// Issue 56, items 3 and 4, end to end with real git: a clone that misses the
/// pass CI recorded for the same commit (its run merged here, as `history
/// pull` or `history merge` brings it) is told why by `verify --dry-run` and,
/// in full, by `duet explain`; a `requires:` program is known by its bytes, so
/// the same tool installed at another path is no difference.
@Suite("Why a machine missed the cache", .serialized)
struct ExplainCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: k
        sh: tool && cat src/a.txt
        inputs: [src/**]
        env-inputs: [FLAVOR]
        requires: [tool]
    """

  /// A repository with the tree, a clone of it in `ci/` that verified as a
  /// CI job with `tool` from `ci-bin/`, and its run merged into the repository's store.
  func repositoryWithACIPass() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src/a.txt", "a\n")
    try tree.write(".gitignore", ".duet/\nci/\nci-bin/\nbin/\n")
    for folder in ["ci-bin", "bin"] {
      try tree.write("\(folder)/tool", "#!/bin/sh\necho v1\n")
      chmod(tree.url.appendingPathComponent("\(folder)/tool").path, 0o755)
    }
    let setup = try shell("git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm start && git clone -q . ci", in: tree.url)
    #expect(setup.status == 0, "\(setup.output)")
    let ci = tree.url.appendingPathComponent("ci")
    let run = try runDuet(["verify"], in: ci, environment: ["PATH": tree.url.path + "/ci-bin:/usr/bin:/bin", "GITHUB_ACTIONS": "true",
                                                             "GITHUB_JOB": "linux-1", "FLAVOR": "release"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(try tree.duet("history", "merge", "ci/.duet/history.sqlite").status == 0)
    return tree
  }

  func here(_ tree: FixtureTree, flavor: String) -> [String: String] {
    ["PATH": tree.url.path + "/bin:/usr/bin:/bin", "FLAVOR": flavor]
  }

  /// The same inputs, and the same tool at another path: served, nothing to explain.
  /// An edited input, another FLAVOR and another tool: the dry run names the
  /// CI pass it misses and why; `duet explain` names every part.
  @Test func aMissIsExplainedPartByPart() throws {
    let tree = try repositoryWithACIPass()
    let same = try tree.duet("verify", "--dry-run", environment: here(tree, flavor: "release"))
    #expect(same.stdout.contains("k  cached"), "\(same.stdout)")
    let nothing = try tree.duet("explain", "k", environment: here(tree, flavor: "release"))
    #expect(nothing.status == 1 && nothing.stderr.contains("no pass of it by another checkout"), "\(nothing.stdout)\(nothing.stderr)")

    try tree.write("src/a.txt", "b\n")
    try tree.write("bin/tool", "#!/bin/sh\necho v2\n")
    let dry = try tree.duet("verify", "--dry-run", "--json", environment: here(tree, flavor: "debug"))
    let reason = try #require(dry.stdout.split(separator: "\n").first { $0.contains("\"reason\"") }.map(String.init))
    #expect(reason.contains("misses the CI pass (run 20") && reason.contains(", ci linux-1): src/a.txt differs; FLAVOR differs; requires tool: "), "\(reason)")
    let explained = try tree.duet("explain", "k", environment: here(tree, flavor: "debug"))
    #expect(explained.status == 0, "\(explained.stderr)")
    let lines = explained.lines.filter { !$0.isEmpty }
    #expect(lines.count == 4 && lines[0].hasPrefix("duet explain k: misses the CI pass (run 20") && lines[0].hasSuffix("in 3 part(s):"), "\(explained.stdout)")
    #expect(Array(lines.dropFirst().prefix(2)) == ["  src/a.txt differs", "  FLAVOR differs"], "\(explained.stdout)")
    #expect(lines[3].hasPrefix("  requires tool: ") && lines[3].hasSuffix(" there"), "\(explained.stdout)")
    #expect(!explained.stdout.contains("debug") && !explained.stdout.contains("release"), "a value was shown")
  }

  /// `--against RUN` compares with the run named (a prefix of its log id);
  /// a run the history does not hold is a usage error.
  @Test func againstANamedRun() throws {
    let tree = try repositoryWithACIPass()
    let logID = try #require(try tree.duet("history").lines.compactMap { line in
      line.split(separator: " ").first { $0.hasPrefix("20") && $0.count == 22 }.map(String.init)
    }.first)
    let same = try tree.duet("explain", "k", "--against", String(logID.prefix(20)), environment: here(tree, flavor: "release"))
    #expect(same.status == 0 && same.stdout.contains("nothing differs"), "\(same.stdout)\(same.stderr)")
    let other = try tree.duet("explain", "k", "--against", String(logID.prefix(20)), environment: here(tree, flavor: "debug"))
    #expect(other.stdout.contains("in 1 part(s):\n  FLAVOR differs\n"), "\(other.stdout)")
    #expect(try tree.duet("explain", "k", "--against", "nope").status == 2)
    #expect(try tree.duet("explain", "kk").status == 2)
  }
}
