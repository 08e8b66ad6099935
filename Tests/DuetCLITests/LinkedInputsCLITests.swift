import Foundation
import Testing

/// Issue 39, item 14: a change reached through an in-tree folder link is a
/// change to the lane's inputs for `--since` (and so both hooks) as for a full
/// verify: `src/link -> ../shared` makes an edit of `shared/x.txt` an edit of
/// `src/link/x.txt`.
@Suite("A change through an in-tree folder link affects the lane")
struct LinkedInputsCLITests {
  @Test func sinceSeesAnEditThroughAFolderLink() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: check, sh: "! grep -Rqs BAD src", inputs: ["src/**"]}
        - {name: other, sh: "true", inputs: ["docs/**"]}
      """)
    try tree.write("shared/x.txt", "ok\n")
    try tree.write("src/a.txt", "ok\n")
    try tree.write("docs/d.txt", "ok\n")
    symlink("../shared", tree.url.appendingPathComponent("src/link").path)
    try tree.write(".gitignore", ".duet/\n")
    try CIGit.commitAll(tree)
    try tree.write("shared/x.txt", "BAD\n")
    let dry = try tree.duet("verify", "--since", "HEAD", "--dry-run")
    let row = dry.lines.first { $0.split(separator: " ").contains("check") } ?? ""
    #expect(row.contains("runs"), "\(dry.stdout)")
    #expect(row.contains("src/link/x.txt"), "\(dry.stdout)")
    let since = try tree.duet("verify", "--since", "HEAD")
    #expect(since.status == 1, "a push a full verify fails goes through: \(since.stdout)")
    #expect(since.stdout.contains("other unaffected") || since.stdout.contains("- other"), "\(since.stdout)")
  }
}
