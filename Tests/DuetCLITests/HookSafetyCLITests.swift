import Foundation
import Testing

/// What `duet hook install` may replace and where it may write (issue 27,
/// defects 7 and 8), on real repositories.
@Suite("hooks keep what is not duet's")
struct HookSafetyCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: app
        sh: 'echo checking the app; test "$(cat src/app.txt 2>/dev/null)" != bad'
        inputs: [src/**]
    """

  func repository() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src/app.txt", "ok\n")
    try tree.write(".gitignore", ".duet/\n")
    try CIGit.commitAll(tree)
    return tree
  }

  func bytes(_ url: URL) -> [UInt8]? { FileManager.default.contents(atPath: url.path).map(Array.init) }

  /// Run through a link, the binary names its own file in the hook, links
  /// resolved: it reads the kernel's `/proc/self/exe` on Linux, not
  /// Foundation's `Bundle.main`, which lists the executable's folder (issue 42).
  @Test func theHookRunsTheExecutableBehindALink() throws {
    let tree = try repository()
    let bin = tree.url.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("duet"), withDestinationURL: duetBinary)
    let run = try runBinary(["hook", "install"], in: tree.url, binary: bin.appendingPathComponent("duet"))
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let real = duetBinary.resolvingSymlinksInPath().path
    #expect(run.stdout.contains("it runs \(real)"), "\(run.stdout)")
    let script = try String(contentsOf: tree.url.appendingPathComponent(".git/hooks/pre-push"), encoding: .utf8)
    #expect(script.contains(real) && !script.contains(bin.path), "\(script)")
  }

  /// A hook that is not UTF-8 is refused like any foreign hook, and `--force`
  /// keeps it byte for byte as the backup that `uninstall` puts back.
  @Test func foreignBytesAreKept() throws {
    let tree = try repository()
    let hook = tree.url.appendingPathComponent(".git/hooks/pre-push")
    let latin1: [UInt8] = Array("#!/bin/sh\necho caf".utf8) + [0xE9] + Array("\n".utf8)
    try Data(latin1).write(to: hook)
    let refused = try tree.duet("hook", "install")
    #expect(refused.status == 1 && refused.stderr.contains("a pre-push hook duet did not write"), "\(refused.stderr)")
    #expect(bytes(hook) == latin1)
    #expect(try tree.duet("hook", "install", "--force").status == 0)
    #expect(bytes(tree.url.appendingPathComponent(".git/hooks/pre-push.duet-backup")) == latin1)
    #expect(try tree.duet("hook", "uninstall").status == 0)
    #expect(bytes(hook) == latin1)
  }

  /// A symbolic link hook, dangling or not, is foreign: refused without
  /// `--force`, moved aside as the same link with it, and put back by `uninstall`.
  @Test func linkedHooksAreKept() throws {
    let tree = try repository()
    let hook = tree.url.appendingPathComponent(".git/hooks/pre-push")
    for target in ["../../node_modules/husky/pre-push", "pre-commit.sample"] {
      try? FileManager.default.removeItem(at: hook)
      try FileManager.default.createSymbolicLink(atPath: hook.path, withDestinationPath: target)
      let refused = try tree.duet("hook", "install")
      #expect(refused.status == 1 && refused.stderr.contains("symbolic link to \(target)"), "\(refused.stderr)")
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: hook.path) == target)
      #expect(try tree.duet("hook", "install", "--force").status == 0)
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: hook.path + ".duet-backup") == target)
      #expect(try tree.read(".git/hooks/pre-push").contains("# duet-hook v1"))
      #expect(try tree.duet("hook", "uninstall").status == 0)
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: hook.path) == target)
    }
  }

  /// A hooks folder outside the repository (a global core.hooksPath) is refused
  /// unless named; named, its hook finds duet on PATH and does nothing in a
  /// repository without a manifest.
  @Test func globalHooksFolderOnlyByName() throws {
    let tree = try repository()
    let global = FileManager.default.temporaryDirectory.appendingPathComponent("duet-ghooks-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: global, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: global) }
    #expect(try CIGit.run(["config", "core.hooksPath", global.path], in: tree.url) == 0)
    let refused = try tree.duet("hook", "install")
    #expect(refused.status == 1 && refused.stderr.contains("outside the repository") && refused.stderr.contains("--hooks-folder"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: global.appendingPathComponent("pre-push").path))
    let named = try tree.duet("hook", "install", "--hooks-folder", global.path)
    #expect(named.status == 0, "\(named.stderr)")
    let script = try String(contentsOf: global.appendingPathComponent("pre-push"), encoding: .utf8)
    #expect(!script.contains(duetBinary.path) && script.contains("command -v duet"))
    // Another repository without a manifest: the hook passes without looking for duet.
    let other = try FixtureTree()
    try other.write("README", "x\n")
    try CIGit.commitAll(other)
    let run = try shell("sh \(global.appendingPathComponent("pre-push").path) origin x < /dev/null", in: other.url, environment: ["PATH": "/usr/bin:/bin"])
    #expect(run.status == 0, "\(run.output)")
  }

  /// A hooks folder inside the work tree (tracked, shared with every clone)
  /// gets a hook that finds duet by name, not this machine's path.
  @Test func trackedHooksFolderNamesDuet() throws {
    let tree = try repository()
    #expect(try CIGit.run(["config", "core.hooksPath", ".githooks"], in: tree.url) == 0)
    let install = try tree.duet("hook", "install")
    #expect(install.status == 0 && install.stdout.contains("it runs the duet on PATH"), "\(install.stdout)")
    let script = try tree.read(".githooks/pre-push")
    #expect(!script.contains(duetBinary.path) && script.contains("duet=$(command -v duet)"), "\(script)")
  }

  /// `hook install --root DIR` where DIR has no manifest is refused, and no hook is written.
  @Test func installWithoutAManifestIsRefused() throws {
    let tree = try repository()
    try tree.write("sub/README", "x\n")
    let run = try tree.duet("hook", "install", "--root", "sub")
    #expect(run.status == 1 && run.stderr.contains("has no lanes/manifest.yaml"), "\(run.stderr)")
    #expect(!tree.exists(".git/hooks/pre-push"))
  }

  /// A push verified in a temporary checkout (the tree is dirty) keeps its logs
  /// in the tree's own store, so `duet logs` shows the failing lane's output;
  /// a log deleted afterwards is reported as deleted, not as trimmed.
  @Test func hookRunLogsAreKept() throws {
    let tree = try repository()
    let remote = tree.url.deletingLastPathComponent().appendingPathComponent("duet-remote-\(UUID().uuidString).git")
    defer { try? FileManager.default.removeItem(at: remote) }
    #expect(try CIGit.run(["init", "-q", "--bare", remote.path], in: tree.url) == 0)
    try CIGit.run(["remote", "add", "origin", remote.path], in: tree.url)
    #expect(try CIGit.run(["push", "-q", "origin", "HEAD:refs/heads/main"], in: tree.url) == 0)
    #expect(try tree.duet("hook", "install").status == 0)
    try tree.write("src/app.txt", "bad\n")
    try CIGit.run(["commit", "-q", "-am", "break the app"], in: tree.url)
    try tree.write("src/app.txt", "ok\n")
    #expect(try CIGit.run(["push", "-q", "origin", "HEAD:refs/heads/main"], in: tree.url) != 0)
    let logs = try tree.duet("logs", "app")
    #expect(logs.status == 0 && logs.stdout.contains("checking the app"), "\(logs.stderr)")
    let folders = try FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(".duet/logs").path)
    for folder in folders {
      try? FileManager.default.removeItem(at: tree.url.appendingPathComponent(".duet/logs/\(folder)/app.log"))
    }
    let missing = try tree.duet("logs", "app")
    #expect(missing.status == 1 && missing.stderr.contains("the file was deleted") && !missing.stderr.contains("trimmed"), "\(missing.stderr)")
  }
}
