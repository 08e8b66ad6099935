import Foundation
import Testing

/// Issue 42, item 3: an in-process call (as the tests make, and as a hook's
/// `duet` is one process among others) sees only the environment it was
/// handed. Each request here carries a `PATH` whose first `git` records its
/// arguments and a variable this process does not have; the records prove
/// verify's `--strict` check, the hook installer and the mocks built-in used
/// that environment, not this process's (where `git` is the real one and the
/// variable unset).
@Suite("verify, hooks and mocks use the request's environment")
struct OneEnvironmentCLITests {
  /// A folder with a `git` that appends its arguments to `git.log` beside it, then runs the real git.
  func recordingGit() throws -> FixtureTree {
    let bin = try FixtureTree()
    let real = ["/usr/bin/git", "/usr/local/bin/git", "/opt/homebrew/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/git"
    try bin.write("git", "#!/bin/sh\necho \"$*\" >> '\(bin.url.path)/git.log'\nexec '\(real)' \"$@\"\n")
    try bin.makeExecutable("git")
    return bin
  }

  func repository(_ manifest: String) throws -> FixtureTree {
    let tree = try FixtureTree(manifest: manifest)
    let setup = try shell("git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm one", in: tree.url)
    #expect(setup.status == 0, "\(setup.output)")
    return tree
  }

  func environment(_ bin: FixtureTree) -> [String: String] {
    ["PATH": bin.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
     "DUET_TEST_REQUEST_ONLY": "from the request", "DUET_HISTORY": "off"]
  }

  @Test func strictVerifyAsksGitThroughTheRequest() throws {
    #expect(ProcessInfo.processInfo.environment["DUET_TEST_REQUEST_ONLY"] == nil)
    let bin = try recordingGit()
    let tree = try repository("version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    let run = try tree.duet("verify", "--strict", environment: environment(bin))
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let log = (try? bin.read("git.log")) ?? ""
    #expect(log.contains("status --porcelain=v1"), "--strict's tracked-file check ran the process's git: \(log)")
  }

  @Test func hookInstallAsksGitThroughTheRequest() throws {
    let bin = try recordingGit()
    let tree = try repository("version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    let install = try tree.duet("hook", "install", environment: environment(bin))
    #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
    let log = (try? bin.read("git.log")) ?? ""
    #expect(log.contains("rev-parse"), "the hook installer ran the process's git: \(log)")
    let uninstall = try tree.duet("hook", "uninstall", environment: environment(bin))
    #expect(uninstall.status == 0, "\(uninstall.stdout)\(uninstall.stderr)")
  }

  /// The `mocks` built-in lane runs its generator with the lane's environment:
  /// the request's variable reaches the generated file.
  @Test func mocksLaneGeneratorGetsTheRequestsEnvironment() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      mocks:
        - output: Tests/Mocks.swift
          sources: [Sources]
          generator: printf '// %s\\n' "$DUET_TEST_REQUEST_ONLY" > "$DUET_MOCK_OUTPUT"
      lanes:
        - name: mocks
          run: mocks

      """)
    try tree.write("Sources/A.swift", "struct A {}\n")
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("Tests"), withIntermediateDirectories: true)
    let bin = try recordingGit()
    let run = try tree.duet("verify", environment: environment(bin))
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)\((try? tree.duet("logs", "mocks"))?.stdout ?? "")")
    let written = try tree.read("Tests/Mocks.swift")
    #expect(written.contains("// from the request"), "\(written)")
  }

  /// Issues 51 and 52: a lane never sees duet's history store (so it cannot
  /// write a verdict for another lane into the store a CI job hands on) nor the
  /// remote cache's address, token and key; a lane's own `env:` still may set one.
  @Test func duetsStoreAndCacheSecretsStayWithDuet() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: blind
          sh: 'env | grep "^DUET_HISTORY=\\|^DUET_REMOTE_CACHE" > seen.txt; true'
        - name: own
          env: {DUET_HISTORY: mine.sqlite}
          sh: 'test "$DUET_HISTORY" = mine.sqlite'
      """)
    let run = try tree.duet("verify", environment: [
      "DUET_HISTORY": tree.url.appendingPathComponent("h.sqlite").path, "DUET_REMOTE_CACHE_TOKEN": "s3cret",
      "DUET_REMOTE_CACHE_KEY": "k3y", "DUET_REMOTE_CACHE_JOBS": "4",
    ])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(try tree.read("seen.txt") == "", "a lane saw duet's own settings")
    #expect(tree.exists("h.sqlite"), "duet itself still records where DUET_HISTORY says")
  }
}
