import Foundation
import Testing
@testable import DuetFuzzSupport

/// Issue 26: a cached pass certifies exactly what the lane saw. Each test is a
/// PASS that an earlier duet gave for a tree that fails.
@Suite("A cached pass certifies what the lane saw, end to end")
struct CacheSoundnessCLITests {
  /// An input edited while the lane runs: the pass stands for that run, but it
  /// is not kept for the inputs duet read before the lane, and `--dry-run` says why.
  @Test func inputEditedDuringTheLaneIsNotCached() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: check
          sh: if [ ! -e started ]; then touch started; while ! grep -q ok f; do sleep 0.01; done; fi; grep -q ok f
          inputs: [f]
      """)
    try tree.write("f", "bad\n")
    let url = tree.url
    // The edit comes once the lane runs (duet read its inputs before), and the
    // lane waits for it: no guess at how long a loaded machine takes to get there.
    Thread.detachNewThread {
      _ = eventually(within: 120) { FileManager.default.fileExists(atPath: url.appendingPathComponent("started").path) }
      try? Data("ok\n".utf8).write(to: url.appendingPathComponent("f"))
    }
    #expect(try tree.duet("verify").status == 0)
    try tree.write("f", "bad\n")
    let dry = try tree.duet("verify", "--dry-run")
    #expect(dry.stdout.contains("its inputs changed while it last ran (f)"), "\(dry.stdout)")
    let again = try tree.duet("verify")
    #expect(again.status == 1, "\(again.stdout)")
    #expect(!again.stdout.contains("cached"))
  }

  /// A pass judged without `--strict` (its lane rewrote a tracked file) does
  /// not serve a `--strict` run, which fails as `--no-cache` does.
  @Test func strictIsNotServedANonStrictPass() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: gen
          sh: echo v2 > gen.txt
          inputs: ["src/*.txt"]
      """)
    try tree.write("src/a.txt", "a\n")
    try tree.write("gen.txt", "v1\n")
    try tree.write(".gitignore", ".duet/\n")
    try CIGit.commitAll(tree)
    #expect(try tree.duet("verify").status == 0)
    try CIGit.run(["checkout", "-q", "gen.txt"], in: tree.url)
    let dry = try tree.duet("verify", "--strict", "--dry-run")
    #expect(dry.stdout.contains("it last passed without --strict"), "\(dry.stdout)")
    let strict = try tree.duet("verify", "--strict")
    #expect(strict.status == 1, "\(strict.stdout)")
    #expect(strict.stdout.contains("lanes changed 1 tracked file(s): gen.txt"), "\(strict.stdout)")
    // A --strict pass serves both kinds of run.
    try CIGit.run(["checkout", "-q", "gen.txt"], in: tree.url)
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: gen
          sh: test -f gen.txt
          inputs: ["src/*.txt"]
      """)
    #expect(try tree.duet("verify", "--strict").status == 0)
    #expect(try tree.duet("verify", "--strict").stdout.contains("PASS (1 cached)"))
    #expect(try tree.duet("verify").stdout.contains("PASS (1 cached)"))
  }

  /// `DUET_CHANGED_FILES` inherited from the caller is not handed to lanes: a
  /// lane that checks only the listed files checks the whole tree, and fails.
  @Test func inheritedChangedFilesListIsCleared() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: lint
          sh: 'if [ -n "$DUET_CHANGED_FILES" ]; then files=$(cat "$DUET_CHANGED_FILES"); else files=$(ls src/*); fi; for f in $files; do if grep -q BAD "$f"; then echo "$f: error: BAD"; exit 1; fi; done'
          inputs: ["src/**"]
      """)
    try tree.write("src/old.txt", "BAD\n")
    try tree.write("src/new.txt", "fine\n")
    try tree.write("list", "src/new.txt\n")
    let inherited = try tree.duet("verify", environment: ["DUET_CHANGED_FILES": tree.url.appendingPathComponent("list").path,
                                                          "DUET_LANE": "spoof", "DUET_ROOT": "/nowhere"])
    #expect(inherited.status == 1, "\(inherited.stdout)")
    #expect(inherited.stdout.contains("src/old.txt: error: BAD"))
  }

  /// A pass under a change list (`--since`) never serves a full run, even when
  /// the lane reads the list through a script its command does not show.
  @Test func partialPassThroughAScriptDoesNotServeAFullRun() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: lint
          sh: sh check.sh
          inputs: ["src/**", check.sh]
      """)
    try tree.write("check.sh", """
      if [ -n "$DUET_CHANGED_FILES" ]; then files=$(grep '^src/' "$DUET_CHANGED_FILES"); else files=$(ls src/*); fi
      for f in $files; do if grep -q BAD "$f"; then echo "$f: error: BAD"; exit 1; fi; done

      """)
    try tree.write("src/old.txt", "BAD\n")
    try tree.write(".gitignore", ".duet/\n")
    try CIGit.commitAll(tree)
    try tree.write("src/new.txt", "fine\n")
    #expect(try tree.duet("verify", "--since", "HEAD").status == 0)
    let dry = try tree.duet("verify", "--dry-run")
    #expect(dry.stdout.contains("it last passed on a change list (--since), not the whole tree"), "\(dry.stdout)")
    let full = try tree.duet("verify")
    #expect(full.status == 1, "\(full.stdout)")
    // A full run's pass does serve a later partial run.
    try tree.write("src/old.txt", "fine\n")
    #expect(try tree.duet("verify").status == 0)
    #expect(try tree.duet("verify", "--since", "HEAD").stdout.contains("cached"))
  }

  /// Files under an input's folder that an earlier duet left out of the key: a
  /// hidden file, a name that is not UTF-8, a link to a file and a link to a
  /// folder. Editing each makes the lane run again.
  @Test(arguments: ["hidden", "latin1", "file-link", "folder-link", "link-target"])
  func everyFileUnderAnInputIsInTheKey(_ kind: String) throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: check
          sh: "true"
          inputs: ["src/**"]
      """)
    try tree.write("src/a.txt", "a\n")
    try tree.write("other/b.txt", "b\n")
    try tree.write("outside.txt", "o\n")
    let src = tree.url.appendingPathComponent("src").path
    // `caf\xE9.txt`, a Latin-1 name no Swift string holds, by its bytes.
    let latin1Path = Array(src.utf8) + Array("/caf".utf8) + [0xE9] + Array(".txt".utf8) + [0]
    switch kind {
    case "hidden": try tree.write("src/.hidden.txt", "1\n")
    case "latin1":
      let fd = latin1Path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
      #expect(fd >= 0)
      _ = write(fd, "1\n", 2)
      close(fd)
    case "file-link": try FileManager.default.createSymbolicLink(atPath: src + "/link.txt", withDestinationPath: "../outside.txt")
    case "folder-link", "link-target": try FileManager.default.createSymbolicLink(atPath: src + "/dir", withDestinationPath: "../other")
    default: Issue.record("unknown kind \(kind)")
    }
    #expect(try tree.duet("verify").status == 0)
    #expect(try tree.duet("verify").stdout.contains("PASS (1 cached)"))
    switch kind {
    case "hidden": try tree.write("src/.hidden.txt", "2\n")
    case "latin1":
      let fd = latin1Path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_TRUNC, 0o644) }
      _ = write(fd, "2\n", 2)
      close(fd)
    case "file-link": try tree.write("outside.txt", "changed\n")
    case "folder-link": try tree.write("other/b.txt", "changed\n")
    case "link-target":
      try FileManager.default.removeItem(atPath: src + "/dir")
      try FileManager.default.createSymbolicLink(atPath: src + "/dir", withDestinationPath: "../elsewhere")
    default: break
    }
    let dry = try tree.duet("verify", "--dry-run")
    #expect(dry.stdout.contains("inputs changed"), "\(kind): \(dry.stdout)")
    #expect(!(try tree.duet("verify").stdout.contains("cached")), "\(kind)")
  }

  /// A NUL byte in `sh:` or `requires:` would run a truncated command (`exit 0`):
  /// the manifest is refused with the position.
  @Test(arguments: [("sh: \"exit 0\\0; exit 1\"", "lanes/manifest.yaml:4:"),
                    ("sh: \"true\"\n    requires: [\"ko\\0tlinc\"]", "lanes/manifest.yaml:5:")])
  func nulInACommandIsRefused(_ line: String, _ position: String) throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: a
          \(line)
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains(position), "\(run.stderr)")
    #expect(run.stderr.contains("NUL"), "\(run.stderr)")
  }

  /// `--failed` after a partial run (`--lane`) still finds the lane that failed
  /// before, and runs a lane never verified, saying which is which.
  @Test func failedLooksAcrossRuns() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: a
          sh: exit 1
        - name: b
          sh: "true"
      """)
    #expect(try tree.duet("verify").status == 1)
    #expect(try tree.duet("verify", "--lane", "b").status == 0)
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: a
          sh: exit 1
        - name: b
          sh: "true"
        - name: c
          sh: "true"
      """)
    let failed = try tree.duet("verify", "--failed")
    #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
    #expect(failed.stdout.contains("duet verify --failed: 1 not passing (a), 1 not verified (c)"), "\(failed.stdout)")
    #expect(failed.stdout.contains("✗ a"))
    #expect(failed.stdout.contains("✓ c"))
    #expect(!failed.stdout.contains("✓ b"))
  }

  /// `--failed` after an interrupted run runs the lane the interruption stopped.
  @Test func failedRunsWhatAnInterruptedRunLeft() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: slow
          # A sleep that is the point: the lane runs until the test interrupts the run.
          sh: touch slow.started; sleep 30
        - name: quick
          sh: "true"
      """)
    // Interrupted once quick has passed and while slow runs.
    let run = try runBinary(["verify", "--jobs", "2"], in: tree.url) { process, stdout in
      #expect(eventually { tree.exists("slow.started") && stdout().contains("✓ quick") }, "\(stdout())")
      kill(process.processIdentifier, SIGINT)
    }
    #expect(run.status == 130, "\(run.stdout)")
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: slow
          sh: "true"
        - name: quick
          sh: "true"
      """)
    let failed = try tree.duet("verify", "--failed")
    #expect(failed.status == 0, "\(failed.stdout)\(failed.stderr)")
    #expect(failed.stdout.contains("✓ slow"), "\(failed.stdout)")
    #expect(!failed.stdout.contains("✓ quick"))
    let none = try tree.duet("verify", "--failed")
    #expect(none.stdout.contains("every lane passed when it last ran; nothing to run"), "\(none.stdout)\(none.stderr)")
  }

  /// duet never kills its own `git rev-parse` as a lane's leftover: every run
  /// records the commit, and none warns of stopped processes.
  @Test func ownGitQueryIsNotALeftover() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: a
          sh: "true"
          inputs: [lanes/manifest.yaml]
        - name: b
          sh: "true"
          inputs: [lanes/manifest.yaml]
      """)
    try tree.write(".gitignore", ".duet/\nbin/\n")
    try CIGit.commitAll(tree)
    // A slow git (as on a loaded machine): the lanes end while duet still asks it for HEAD.
    // A sleep that is the point: git is slow, so the lanes end while duet still asks it.
    let path = try tree.gitOnPath(first: "sleep 0.3")
    let runs = 8
    for _ in 0..<runs {
      let run = try tree.binary("verify", "--no-cache", environment: ["PATH": path])
      #expect(run.status == 0)
      #expect(!run.stderr.contains("stopped"), "\(run.stderr)")
    }
    let history = try tree.duet("history", "--json", "--limit", "\(runs)")
    let object = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any]
    let listed = object?["runs"] as? [[String: Any]] ?? []
    #expect(listed.count == runs)
    #expect(listed.allSatisfy { ($0["gitCommit"] as? String)?.count == 40 }, "\(history.stdout)")
  }
}

/// Issue 26: the lanes `duet init` writes carry `inputs:`, so they are cached
/// when nothing changed; and `--since` runs every lane a change affects: a
/// module's dependents and, for the build's own files, every lane of the build.
@Suite("Derived inputs and affected lanes, end to end")
struct AffectedCLITests {
  /// A two-module Gradle build (`:app` depends on `:core`) with a wrapper that
  /// only echoes, and a `java` stub on PATH, committed to git.
  private func gradleTree() throws -> (FixtureTree, [String: String]) {
    let tree = try FixtureTree()
    try tree.write("settings.gradle.kts", "rootProject.name = \"two\"\ninclude(\":core\", \":app\")\n")
    try tree.write("gradle/wrapper/gradle-wrapper.properties", "distributionUrl=gradle-8.10-bin.zip\n")
    try tree.write("gradlew", "#!/bin/sh\necho \"gradle stub: $*\"\n")
    try tree.makeExecutable("gradlew")
    try tree.write("core/build.gradle.kts", "plugins { kotlin(\"jvm\") }\n")
    try tree.write("core/src/main/kotlin/Core.kt", "class Core\n")
    try tree.write("core/src/test/kotlin/CoreTest.kt", "class CoreTest\n")
    try tree.write("app/build.gradle.kts", "plugins { kotlin(\"jvm\") }\ndependencies { implementation(project(\":core\")) }\n")
    try tree.write("app/src/main/kotlin/App.kt", "class App\n")
    try tree.write("app/src/test/kotlin/AppTest.kt", "class AppTest\n")
    try tree.write("bin/java", "#!/bin/sh\nexit 0\n")
    try tree.makeExecutable("bin/java")
    try tree.write(".gitignore", ".duet/\nbin/\n")
    let path = tree.url.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return (tree, ["PATH": path])
  }

  /// Every lane `duet init` writes has inputs, and a second verify serves them all from the cache.
  @Test func initLanesAreCachedOnTheSecondVerify() throws {
    let (tree, env) = try gradleTree()
    #expect(try tree.duet("init").status == 0)
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(manifest.contains("core/src/**"), "\(manifest)")
    let first = try tree.duet("verify", environment: env)
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    let second = try tree.duet("verify", environment: env)
    #expect(second.stdout.contains("duet verify: PASS (2 cached)"), "\(second.stdout)")
  }

  /// A change to `:core` runs `:app`'s lane too, which depends on it; a change
  /// to the build's own files runs every lane of the build; `--dry-run` names
  /// the changed file behind each lane.
  @Test func sinceRunsDependentsAndBuildFileChanges() throws {
    let (tree, env) = try gradleTree()
    #expect(try tree.duet("init").status == 0)
    try CIGit.commitAll(tree)
    try tree.write("core/src/main/kotlin/Core.kt", "class Core { val x = 1 }\n")
    let core = try tree.duet("verify", "--since", "HEAD", "--dry-run", environment: env)
    #expect(core.stdout.contains("2 of 2 lane(s) affected"), "\(core.stdout)")
    #expect(core.stdout.contains("changed: core/src/main/kotlin/Core.kt"), "\(core.stdout)")
    #expect(!core.stdout.contains("unaffected"), "\(core.stdout)")
    try CIGit.run(["checkout", "-q", "."], in: tree.url)
    try tree.write("gradle/wrapper/gradle-wrapper.properties", "distributionUrl=gradle-8.11-bin.zip\n")
    try tree.write("settings.gradle.kts", "rootProject.name = \"two\"\ninclude(\":core\", \":app\")\n// touched\n")
    let build = try tree.duet("verify", "--since", "HEAD", "--dry-run", environment: env)
    #expect(build.stdout.contains("2 of 2 lane(s) affected"), "\(build.stdout)")
    #expect(!build.stdout.contains("unaffected"), "\(build.stdout)")
    // An edit to :app alone leaves :core unaffected.
    try CIGit.run(["checkout", "-q", "."], in: tree.url)
    try tree.write("app/src/main/kotlin/App.kt", "class App { val y = 2 }\n")
    let app = try tree.duet("verify", "--since", "HEAD", "--dry-run", environment: env)
    #expect(app.stdout.contains("1 of 2 lane(s) affected"), "\(app.stdout)")
  }

  /// A hand-written lane that only `covers:` a module runs when a module it
  /// depends on, or its build's own files, changed.
  @Test func coversReachDependenciesAndBuildFiles() throws {
    let (tree, env) = try gradleTree()
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - {name: core, sh: ./gradlew :core:test, covers: [core]}
        - {name: app, sh: ./gradlew :app:test, covers: [app]}
      """)
    try CIGit.commitAll(tree)
    try tree.write("core/src/main/kotlin/Core.kt", "class Core { val x = 1 }\n")
    let core = try tree.duet("verify", "--since", "HEAD", "--dry-run", environment: env)
    #expect(core.stdout.contains("2 of 2 lane(s) affected"), "\(core.stdout)")
    try CIGit.run(["checkout", "-q", "."], in: tree.url)
    try tree.write("gradle/wrapper/gradle-wrapper.properties", "distributionUrl=gradle-8.11-bin.zip\n")
    let build = try tree.duet("verify", "--since", "HEAD", "--dry-run", environment: env)
    #expect(build.stdout.contains("2 of 2 lane(s) affected"), "\(build.stdout)")
    try CIGit.run(["checkout", "-q", "."], in: tree.url)
    try tree.write("app/src/main/kotlin/App.kt", "class App { val y = 2 }\n")
    let app = try tree.duet("verify", "--since", "HEAD", "--dry-run", environment: env)
    #expect(app.stdout.contains("1 of 2 lane(s) affected"), "\(app.stdout)")
  }

  /// `duet init` on this repository's example trees: with `gradle` and `java`
  /// stubs on PATH every lane that runs here passes, and a second verify serves
  /// them all from the cache; on Atrium (`:app` needs `:home` needs `:theming`)
  /// an edit to `:theming` under `--since` runs all three Gradle lanes.
  @Test(arguments: ["Foyer", "Atrium"])
  func initOnTheExamplesIsCachedAndAffectedTransitively(_ example: String) throws {
    let tree = try FixtureTree()
    let source = DocTranscripts.repository.appendingPathComponent("Examples/\(example)")
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name != "lanes" && name != ".duet" {
      try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: tree.url.appendingPathComponent(name))
    }
    for program in ["gradle", "java"] {
      try tree.write("bin/\(program)", "#!/bin/sh\nexit 0\n")
      try tree.makeExecutable("bin/\(program)")
    }
    try tree.write(".gitignore", ".duet/\nbin/\n")
    // An empty folder stands in for the Android SDK that kotlin-app's lane requires.
    let sdk = try FixtureTree()
    let env = ["PATH": tree.url.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
               "ANDROID_HOME": sdk.url.path]
    #expect(try tree.duet("init").status == 0)
    let first = try tree.duet("verify", environment: env)
    #expect(first.status == 0, "\(first.stdout)")
    #expect(first.stdout.contains("✓ kotlin-theming"), "\(first.stdout)")
    let second = try tree.duet("verify", environment: env)
    #expect(!second.stdout.contains(" pass "), "\(second.stdout)")
    #expect(second.stdout.contains("duet verify: PASS ("), "\(second.stdout)")
    #expect(!second.stdout.contains("passed"), "\(second.stdout)")
    guard example == "Atrium" else { return }
    try CIGit.commitAll(tree)
    let theming = try #require(try FileManager.default.subpathsOfDirectory(atPath: tree.url.appendingPathComponent("src-kmp/theming/src").path)
      .first { $0.hasSuffix(".kt") && !$0.contains("Generated") })
    try tree.write("src-kmp/theming/src/\(theming)", try tree.read("src-kmp/theming/src/\(theming)") + "\n// edited\n")
    let since = try tree.duet("verify", "--since", "HEAD", "--dry-run", environment: env)
    for lane in ["kotlin-theming", "kotlin-home", "kotlin-app"] {
      let row = since.lines.first { $0.split(separator: " ").contains(Substring(lane)) }
      #expect(row?.split(separator: " ").contains("runs") == true, "\(lane): \(since.stdout)")
    }
    #expect(since.stdout.contains("3 of 7 lane(s) affected"), "\(since.stdout)")
  }
}
