import Foundation
import Testing

/// `duet verify --since/--changed` and the git hooks, on real temporary repositories.
@Suite("duet before a push: --since, --changed and hooks")
struct BeforePushCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: app
        sh: 'test "$(cat src/app.txt 2>/dev/null)" != bad'
        inputs: [src/**]
      - name: after-app
        sh: "true"
        needs: [app]
        inputs: [other/**]
      - name: docs
        sh: 'cp "$DUET_CHANGED_FILES" changed.out'
        covers: [docs]
      - name: lint
        sh: "true"
    """

  /// A committed repository with the manifest and one file per lane.
  func repository() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: BeforePushCLITests.manifest)
    try tree.write("src/app.txt", "ok\n")
    try tree.write("src/old.txt", "old\n")
    try tree.write("src/gone.txt", "gone\n")
    try tree.write("docs/guide.md", "guide\n")
    try tree.write("other/x.txt", "x\n")
    try tree.write(".gitignore", ".duet/\nchanged.out\n")
    try CIGit.commitAll(tree)
    return tree
  }

  /// A local bare repository as `origin`, with the tree's commit pushed to its `main` and fetched back.
  func pushedToRemote(_ tree: FixtureTree) throws -> URL {
    let remote = tree.url.deletingLastPathComponent().appendingPathComponent("duet-remote-\(UUID().uuidString).git")
    #expect(try CIGit.run(["init", "-q", "--bare", remote.path], in: tree.url) == 0)
    try CIGit.run(["remote", "add", "origin", remote.path], in: tree.url)
    #expect(try CIGit.run(["push", "-q", "origin", "HEAD:refs/heads/main"], in: tree.url) == 0)
    try CIGit.run(["fetch", "-q", "origin"], in: tree.url)
    return remote
  }

  func outcomes(_ run: DuetRun) -> [String: String] {
    var result: [String: String] = [:]
    for line in run.lines {
      let cells = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      if cells.count >= 2, ["app", "after-app", "docs", "lint"].contains(cells[0]) { result[cells[0]] = cells[1] }
    }
    return result
  }

  /// Committed, staged, unstaged, untracked, deleted and renamed files all count;
  /// a lane runs for its inputs or covers, after a need that runs, or always when it declares neither.
  @Test func sinceCountsEveryKindOfChange() throws {
    let tree = try repository()
    try CIGit.run(["branch", "base"], in: tree.url)
    // Nothing changed: only the lane that declares nothing runs.
    let quiet = try tree.duet("verify", "--since", "base")
    #expect(quiet.status == 0, "\(quiet.stdout)\(quiet.stderr)")
    #expect(outcomes(quiet) == ["app": "unaffected", "after-app": "unaffected", "docs": "unaffected", "lint": "pass"])
    #expect(quiet.lines.last(where: { !$0.isEmpty }) == "duet verify: PASS (1 passed, 3 unaffected)")

    try tree.write("docs/guide.md", "changed\n")
    try CIGit.run(["commit", "-q", "-am", "docs"], in: tree.url)
    try tree.write("src/new.txt", "untracked\n")
    try CIGit.run(["mv", "src/old.txt", "src/renamed.txt"], in: tree.url)
    try CIGit.run(["rm", "-q", "src/gone.txt"], in: tree.url)
    try tree.write("other/x.txt", "unstaged\n")
    let dry = try tree.duet("verify", "--since", "base", "--dry-run")
    #expect(dry.stdout.contains("app        runs  changed"), "\(dry.stdout)")
    #expect(dry.stdout.contains("changed: src/gone.txt, src/new.txt, 2 more; no passing run recorded"), "\(dry.stdout)")
    #expect(dry.stdout.contains("after-app  runs  a need runs (app)\n"), "\(dry.stdout)")
    #expect(dry.stdout.contains("docs       runs  changed: docs/guide.md"), "\(dry.stdout)")
    #expect(dry.stdout.contains("lint       runs  declares no inputs or covers, so it always runs\n"), "\(dry.stdout)")
    let run = try tree.duet("verify", "--since", "base")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(outcomes(run) == ["app": "pass", "after-app": "pass", "docs": "pass", "lint": "pass"])
    #expect(run.lines[0].hasPrefix("duet verify: 6 changed file(s) since merge-base with base ("))
    #expect(run.lines[0].hasSuffix("); 4 of 4 lane(s) affected"))
    let changed = try tree.read("changed.out")
    #expect(changed == "docs/guide.md\nother/x.txt\nsrc/gone.txt\nsrc/new.txt\nsrc/old.txt\nsrc/renamed.txt\n")

  }

  /// An unknown ref and --since with --changed are usage errors (exit 2); outside git, --changed says why.
  @Test func badBases() throws {
    let tree = try repository()
    let unknown = try tree.duet("verify", "--since", "no-such-branch")
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("--since no-such-branch: git knows no commit by that name"))
    let both = try tree.duet("verify", "--since", "HEAD", "--changed")
    #expect(both.status == 2)
    let plain = try FixtureTree(manifest: BeforePushCLITests.manifest)
    let outside = try plain.duet("verify", "--changed")
    #expect(outside.status == 2)
    #expect(outside.stderr.contains("is not inside a git work tree"))
  }

  /// The pre-push hook, driven by real pushes to a local bare repository: a failing lane
  /// blocks the push, an unaffected change pushes, and a foreign hook is kept unless --force.
  @Test func prePushHook() throws {
    let tree = try repository()
    let remote = try pushedToRemote(tree)
    defer { try? FileManager.default.removeItem(at: remote) }

    try tree.write(".git/hooks/pre-push", "#!/bin/sh\necho mine\n")
    let refused = try tree.duet("hook", "install")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("a pre-push hook duet did not write (it begins: #!/bin/sh | echo mine)"))
    #expect(try tree.read(".git/hooks/pre-push") == "#!/bin/sh\necho mine\n")
    let forced = try tree.duet("hook", "install", "--force")
    #expect(forced.status == 0)
    #expect(try tree.read(".git/hooks/pre-push.duet-backup") == "#!/bin/sh\necho mine\n")

    try tree.write("src/app.txt", "bad\n")
    try CIGit.run(["commit", "-q", "-am", "break the app"], in: tree.url)
    #expect(try CIGit.run(["push", "-q", "origin", "HEAD:refs/heads/main"], in: tree.url) != 0)

    try tree.write("src/app.txt", "ok\n")
    try CIGit.run(["commit", "-q", "-am", "fix the app"], in: tree.url)
    #expect(try CIGit.run(["push", "-q", "origin", "HEAD:refs/heads/main"], in: tree.url) == 0)

    let removed = try tree.duet("hook", "uninstall")
    #expect(removed.status == 0)
    #expect(removed.stdout.contains("put back the one it had replaced"))
    #expect(try tree.read(".git/hooks/pre-push") == "#!/bin/sh\necho mine\n")
  }

  /// The pre-push hook verifies the pushed commit, not the work tree: a bad commit
  /// with its fix left uncommitted is still blocked (checked in a temporary checkout),
  /// a hook moved aside by --force still runs, and --force never overwrites a backup.
  @Test func prePushVerifiesWhatIsPushed() throws {
    let tree = try repository()
    let remote = try pushedToRemote(tree)
    defer { try? FileManager.default.removeItem(at: remote) }
    try tree.write(".git/hooks/pre-push", "#!/bin/sh\ncat > lfs-saw.txt\n")
    chmod(tree.url.appendingPathComponent(".git/hooks/pre-push").path, 0o755)
    #expect(try tree.duet("hook", "install", "--force").status == 0)

    try tree.write("src/app.txt", "bad\n")
    try CIGit.run(["commit", "-q", "-am", "break the app"], in: tree.url)
    try tree.write("src/app.txt", "ok\n")
    #expect(try CIGit.run(["push", "-q", "origin", "HEAD:refs/heads/main"], in: tree.url) != 0)
    #expect(try tree.read("lfs-saw.txt").contains("refs/heads/main"), "the hook moved aside still runs, with git's lines")
    try CIGit.run(["commit", "-q", "-am", "fix the app"], in: tree.url)
    #expect(try CIGit.run(["push", "-q", "origin", "HEAD:refs/heads/main"], in: tree.url) == 0)

    try tree.write(".git/hooks/pre-push", "#!/bin/sh\necho another\n")
    let twice = try tree.duet("hook", "install", "--force")
    #expect(twice.status == 1)
    #expect(twice.stderr.contains("already holds a hook duet moved aside"))
    #expect(try tree.read(".git/hooks/pre-push.duet-backup") == "#!/bin/sh\ncat > lfs-saw.txt\n")
  }

  /// Issue 39, item 15: the pre-commit hook verifies what is committed (HEAD
  /// plus the index), not the work tree: a staged failing edit with an
  /// unstaged fix on top stops the commit; staged and fixed, it goes through.
  @Test func preCommitVerifiesTheIndex() throws {
    let tree = try repository()
    #expect(try tree.duet("hook", "install", "--pre-commit").status == 0)
    try tree.write("src/app.txt", "bad\n")
    try CIGit.run(["add", "src/app.txt"], in: tree.url)
    try tree.write("src/app.txt", "ok\n")
    try tree.write("scratch.txt", "an untracked file\n")
    #expect(try CIGit.run(["commit", "-q", "-m", "stage a failing edit"], in: tree.url) != 0)
    let run = try tree.duet("hook", "run", "pre-commit")
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("verifying what is staged, in a temporary checkout"), "\(run.stdout)")
    #expect(try tree.read("src/app.txt") == "ok\n", "the work tree is left as it was")
    try tree.write("src/app.txt", "fine\n")
    try CIGit.run(["add", "src/app.txt"], in: tree.url)
    let commit = try shell("git -c user.name=d -c user.email=d@example.com commit -q -m fixed", in: tree.url)
    #expect(commit.status == 0, "\(commit.output)")
  }

  /// Issue 53, item 1: after `duet init` and `duet hook install`, until
  /// `lanes/` is committed, the hook verifies a commit with no manifest. It
  /// says why and what to do, never a bare "cannot read"; `hook install` warns first.
  @Test func aManifestNotInTheCommitIsNamed() throws {
    let tree = try repository()
    let remote = try pushedToRemote(tree)
    defer { try? FileManager.default.removeItem(at: remote) }
    try CIGit.run(["rm", "-q", "--cached", "lanes/manifest.yaml"], in: tree.url)
    try CIGit.run(["commit", "-q", "-m", "the manifest not yet committed"], in: tree.url)
    let install = try tree.duet("hook", "install")
    #expect(install.status == 0)
    #expect(install.stderr.contains("duet hook: warning: lanes/manifest.yaml is not committed (it is untracked here); "
                                    + "the hook verifies the pushed commit, so every push stops until it is: git add lanes && git commit"),
            "\(install.stderr)")
    let push = try shell("git push origin HEAD:refs/heads/main 2>&1", in: tree.url)
    #expect(push.status != 0)
    #expect(push.output.contains("duet hook: error: lanes/manifest.yaml is not in the commit being pushed (it is untracked here): "
                                 + "commit it, or push with --no-verify"), "\(push.output)")
    #expect(!push.output.contains("cannot read"), "\(push.output)")

    let preCommit = try tree.duet("hook", "install", "--pre-commit")
    #expect(preCommit.stderr.contains("duet hook: warning: lanes/manifest.yaml is not in git (it is untracked here)"), "\(preCommit.stderr)")
    try tree.write("src/app.txt", "changed\n")
    try CIGit.run(["add", "src/app.txt"], in: tree.url)
    let commit = try shell("git -c user.name=d -c user.email=d@example.com commit -q -m change 2>&1", in: tree.url)
    #expect(commit.status != 0)
    #expect(commit.output.contains("duet hook: error: lanes/manifest.yaml is not in the commit being made (it is untracked here): "
                                   + "git add lanes/manifest.yaml, or commit with --no-verify"), "\(commit.output)")
    try CIGit.run(["add", "lanes/manifest.yaml"], in: tree.url)
    let staged = try tree.duet("hook", "install", "--pre-commit")
    #expect(!staged.stderr.contains("warning"), "a staged manifest is what a commit verifies: \(staged.stderr)")
  }
}
