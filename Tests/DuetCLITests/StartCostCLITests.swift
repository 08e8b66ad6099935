import Foundation
import Testing

/// What every duet process pays before it does anything (issue 42, item 6):
/// the libraries the loader maps and relocates at start.
@Suite("What duet loads at start")
struct StartCostCLITests {
  #if os(Linux)
  /// libcurl, with the ~25 libraries it needs (GnuTLS, Kerberos, LDAP, ...),
  /// cost every start 4 ms; it is loaded only when a remote cache is used, so
  /// the binary does not name it (Sources/CCurl/loader.c).
  @Test func theBinaryDoesNotLinkLibcurl() throws {
    let ldd = Process()
    ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    ldd.arguments = [duetBinary.path]
    let pipe = Pipe()
    ldd.standardOutput = pipe
    try ldd.run()
    let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    ldd.waitUntilExit()
    #expect(ldd.terminationStatus == 0, "\(listed)")
    #expect(listed.contains("libc.so"), "\(listed)")
    #expect(!listed.contains("libcurl"), "\(listed)")
  }
  #endif

  /// Only the history's row names the commit: with `DUET_HISTORY=off` (what
  /// sharded CI runs set) a verify starts no `git rev-parse HEAD` beside the
  /// lanes, whose process the lanes would share two cores with. A `git` on
  /// PATH that notes each call says whether it was asked. (The lane declares
  /// inputs: a lane without is keyed by the tree's git state, which asks git.)
  @Test func theHistoryOffAsksGitNoCommit() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: a
          sh: "true"
          inputs: [lanes/manifest.yaml]
      """)
    try tree.write(".gitignore", ".duet/\nbin/\ncalls\n")
    try CIGit.commitAll(tree)
    let calls = tree.url.appendingPathComponent("calls").path
    let path = try tree.gitOnPath(first: "echo \"$*\" >> '\(calls)'")
    let off = try tree.binary("verify", "--no-cache", environment: ["PATH": path, "DUET_HISTORY": "off"])
    #expect(off.status == 0, "\(off.stdout)\(off.stderr)")
    #expect(!tree.exists("calls"), "asked git: \((try? tree.read("calls")) ?? "")")
    // With the history on, the row names the commit: git is asked once.
    let on = try tree.binary("verify", "--no-cache", environment: ["PATH": path])
    #expect(on.status == 0, "\(on.stdout)\(on.stderr)")
    #expect(((try? tree.read("calls")) ?? "").contains("rev-parse HEAD"))
  }
}
