import Foundation
import Testing
@testable import DuetFuzzSupport

/// `duet verify --watch` as a person runs it: the binary, left running, with
/// files edited beside it (by a shell, so no descriptor of this process leaks
/// into a lane), its output read from a file outside the tree.
final class WatchSession {
  let process = Process()
  let log: URL
  let tree: FixtureTree

  /// `logInTree`: the output goes to `watch.log` inside the tree, as
  /// `duet verify --watch > watch.log` run there does.
  init(_ tree: FixtureTree, _ extra: [String] = [], logInTree: Bool = false) throws {
    self.tree = tree
    log = logInTree ? tree.url.appendingPathComponent("watch.log")
      : FileManager.default.temporaryDirectory.appendingPathComponent("duet-watch-\(UUID().uuidString).log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    process.executableURL = duetBinary
    process.arguments = ["verify", "--watch"] + extra
    process.currentDirectoryURL = tree.url
    process.environment = duetEnvironment([:])
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try handle.close()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    try? FileManager.default.removeItem(at: log)
  }

  var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

  /// How many times `text` occurs in the output.
  func count(_ text: String) -> Int { output.components(separatedBy: text).count - 1 }

  /// Waits until `done` holds for the output, at most `timeout` seconds; whether it did.
  @discardableResult
  func waitFor(timeout: Double = 20, _ done: (String) -> Bool) -> Bool {
    eventually(within: timeout) { done(output) }
  }

  /// A fence: an edit to a file no lane reads, and its "nothing to run" line.
  /// The watch takes changes in order, so a run that something before the
  /// fence would start has started by the time the fence's line is printed:
  /// what has not happened then does not happen (no wait on the clock).
  func fence(_ number: Int) throws -> Bool {
    try edit("echo \(number) > FENCE-\(number).txt")
    return waitFor { $0.contains("changed: FENCE-\(number).txt\n  no lane is affected; nothing to run\n") }
  }

  /// The next "watching … for changes" line after `runs` of them.
  func waitForWatching(_ times: Int = 1) -> Bool {
    waitFor { _ in self.count("for changes (Ctrl-C to stop)") >= times }
  }

  /// Runs a shell command in the tree (an edit).
  func edit(_ command: String) throws {
    let result = try shell(command, in: tree.url)
    #expect(result.status == 0, "\(result.output)")
  }

  /// Sends SIGINT and waits (at most 15 s) for duet to exit; its status, or nil if it did not.
  func interrupt() -> Int32? {
    kill(process.processIdentifier, SIGINT)
    _ = eventually(within: 15) { !process.isRunning }
    return process.isRunning ? nil : process.terminationStatus
  }
}

@Suite("duet verify --watch (the binary)")
struct WatchCLITests {
  static let manifest = """
    version: 1
    lanes:
      - {name: swift, sh: "cat src/*.swift > /dev/null", inputs: ["src/**"]}
      - {name: docs, sh: "cat docs/*.md > /dev/null", inputs: ["docs/**"]}
    """

  func makeTree(_ manifest: String = WatchCLITests.manifest) throws -> FixtureTree {
    let tree = try FixtureTree(manifest: manifest)
    try tree.write("src/a.swift", "let a = 1\n")
    try tree.write("docs/guide.md", "# guide\n")
    return tree
  }

  /// An edit to one lane's input runs that lane again, and only it (the
  /// other is `unaffected`); the status says what changed and why the lane
  /// runs; both runs are in the history. How soon is the watch loop's unit
  /// test's (`WatchLoopTests`, on a fake clock); here the run is waited for.
  @Test func editRerunsTheAffectedLanes() throws {
    let tree = try makeTree()
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    #expect(watch.output.contains("duet verify: PASS (2 passed)"))
    try watch.edit("echo 'let b = 2' >> src/a.swift")
    #expect(watch.waitFor(timeout: 30) { $0.contains("duet verify: PASS (1 passed, 1 unaffected)") }, "\(watch.output)")
    let text = watch.output
    #expect(text.contains("duet verify --watch: changed: src/a.swift\n  swift  runs: "), "\(text)")
    #expect(text.contains("docs   unaffected"), "\(text)")
    #expect(watch.waitForWatching(2))
    #expect(watch.interrupt() == 130)
    let history = try tree.duet("history", "--json")
    let runs = (try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])?["runs"] as? [Any]
    #expect(runs?.count == 2, "\(history.stdout)")
  }

  /// Issue 39, item 4: `duet verify --watch > watch.log` in the tree does not
  /// wake itself: its own output (and `**` inputs that reach it) is never a change.
  @Test func itsOwnOutputInTheTreeIsNoChange() throws {
    let tree = try makeTree("""
      version: 1
      lanes:
        - {name: all, sh: "true", inputs: ["**"]}
      """)
    let watch = try WatchSession(tree, logInTree: true)
    #expect(watch.waitForWatching(), "\(watch.output)")
    try watch.edit("echo 'let b = 2' >> src/a.swift")
    #expect(watch.waitFor(timeout: 10) { _ in watch.count("duet verify: PASS") == 2 }, "\(watch.output)")
    // The log was written before and during both runs; had it been a change, it would be named by now.
    #expect(!watch.output.contains("changed: watch.log"), "\(watch.output)")
    #expect(watch.output.contains("changed: src/a.swift\n"), "\(watch.output)")
    #expect(watch.interrupt() == 130)
  }

  /// Issue 39, item 6: the watch shows the state of the whole tree. A lane that
  /// failed earlier and was not run again is named after a run that passed,
  /// and the watch does not say the tree passes while it fails.
  @Test func aLaneStillFailingIsNamed() throws {
    let tree = try makeTree("""
      version: 1
      lanes:
        - {name: swift, sh: "! grep -q BAD src/a.swift", inputs: ["src/**"]}
        - {name: docs, sh: "cat docs/*.md > /dev/null", inputs: ["docs/**"]}
      """)
    try tree.write("src/a.swift", "BAD\n")
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    #expect(watch.output.contains("duet verify: FAIL (1 failed: swift)"), "\(watch.output)")
    try watch.edit("echo '# more' >> docs/guide.md")
    #expect(watch.waitFor(timeout: 10) { $0.contains("still failing from an earlier run: swift (fail)") }, "\(watch.output)")
    #expect(watch.output.contains("duet verify --watch: FAIL: the tree does not pass"), "\(watch.output)")
    try watch.edit("echo 'let a = 1' > src/a.swift")
    #expect(watch.waitFor(timeout: 10) { _ in watch.count("duet verify: PASS") == 2 }, "\(watch.output)")
    #expect(watch.waitForWatching(3))
    #expect(watch.count("still failing from an earlier run") == 1, "\(watch.output)")
    #expect(watch.interrupt() == 130)
  }

  /// An edit to a file no lane reads runs nothing; the status says so.
  @Test func unrelatedEditRunsNothing() throws {
    let tree = try makeTree()
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    try watch.edit("echo hello > README.md")
    #expect(watch.waitFor(timeout: 10) { $0.contains("duet verify --watch: changed: README.md\n  no lane is affected; nothing to run\n") }, "\(watch.output)")
    #expect(watch.count("duet verify: PASS") == 1, "\(watch.output)")
    #expect(watch.interrupt() == 130)
  }

  /// A lane that writes its own input does not start the watch again and
  /// again: what changed during a run is run once more after it (it may be a
  /// person's save), and the same files changed again by that run are a lane
  /// writing them: reported, not run.
  @Test func laneEditingItsInputDoesNotLoop() throws {
    let tree = try makeTree("""
      version: 1
      lanes:
        - {name: gen, sh: "date +%s%N > src/gen.txt", inputs: ["src/**"]}
      """)
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    #expect(watch.output.contains("changed during the run (not run again, a lane may have written them): src/gen.txt"), "\(watch.output)")
    #expect(watch.waitFor { _ in watch.count("duet verify: PASS") == 2 }, "\(watch.output)")
    #expect(try watch.fence(1), "\(watch.output)")
    #expect(watch.count("duet verify: PASS") == 2, "\(watch.output)")
    // An edit by a person runs it, and the file it writes once more, then it stops.
    try watch.edit("echo 'let c = 3' >> src/a.swift")
    #expect(watch.waitFor(timeout: 10) { _ in watch.count("duet verify: PASS") == 4 }, "\(watch.output)")
    #expect(try watch.fence(2), "\(watch.output)")
    #expect(watch.count("duet verify: PASS") == 4, "\(watch.output)")
    #expect(watch.interrupt() == 130)
  }

  /// Issue 52, item 9: what a run writes itself is no change. A lane's
  /// declared `outputs:` and `reports:` and a Gradle project's `build/` folder,
  /// written during the first run, are not named after it (they were, as a
  /// change made during the run).
  @Test func aLanesOwnFilesAreNoChange() throws {
    let tree = try makeTree("""
      version: 1
      lanes:
        - name: build
          sh: "mkdir -p gen app/build/classes app/.gradle reports && date +%s%N > gen/out.txt && date +%s%N > app/build/classes/A.class && date +%s%N > app/.gradle/x && cp junit.txt reports/junit.xml"
          inputs: ["src/**"]
          outputs: [gen]
          reports: ["reports/*.xml"]
      """)
    try tree.write("app/build.gradle.kts", "plugins {}\n")
    try tree.write("junit.txt", "<testsuite name=\"s\" tests=\"1\"><testcase classname=\"c\" name=\"t\"/></testsuite>\n")
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    #expect(watch.output.contains("duet verify: PASS (1 passed)"), "\(watch.output)")
    #expect(try watch.fence(1), "\(watch.output)")
    let text = watch.output
    #expect(!text.contains("gen/out.txt") && !text.contains("reports/junit.xml") && !text.contains("app/build/"), "\(text)")
    #expect(text.components(separatedBy: "changed:").count - 1 == 1, "only the fence is a change: \(text)")
    #expect(watch.interrupt() == 130)
  }

  /// Issue 52, item 9: a file that never existed when a run looked is no
  /// change: `sed -i`'s temporary, written beside the edited file and renamed
  /// over it, named by events read apart, is not listed; the edited file is.
  @Test func sedsTemporaryIsNoChange() throws {
    let tree = try makeTree()
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    // A sleep that is the point: as sed -i does, in two steps the watch reads apart (its quiet time is 0.2 s).
    try watch.edit("cp src/a.swift src/sedAb12Cd && echo 'let b = 2' >> src/sedAb12Cd && sleep 0.1 && mv src/sedAb12Cd src/a.swift")
    #expect(watch.waitFor(timeout: 10) { _ in watch.count("duet verify: PASS") == 2 }, "\(watch.output)")
    #expect(try watch.fence(1), "\(watch.output)")
    #expect(watch.output.contains("changed: src/a.swift\n"), "\(watch.output)")
    #expect(!watch.output.contains("sedAb12Cd"), "\(watch.output)")
    #expect(watch.interrupt() == 130)
  }

  /// Issue 39, item 5: a save made while lanes run is run after the run ends,
  /// so the screen does not end on PASS for a tree that now fails.
  @Test func aSaveDuringARunIsRunAfterIt() throws {
    // The lane says (outside the tree) that it has read its input, so the save comes after.
    let mark = FileManager.default.temporaryDirectory.appendingPathComponent("duet-watch-mark-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: mark) }
    let tree = try makeTree("""
      version: 1
      lanes:
        - {name: check, sh: "grep -q BAD src/a.swift && exit 1; touch \(mark); while ! grep -q BAD src/a.swift; do sleep 0.01; done", inputs: ["src/**"]}
      """)
    let watch = try WatchSession(tree)
    #expect(watch.waitFor(timeout: 15) { _ in FileManager.default.fileExists(atPath: mark) }, "\(watch.output)")
    try watch.edit("echo BAD > src/a.swift")
    #expect(watch.waitFor(timeout: 15) { $0.contains("duet verify: FAIL (1 failed: check)") }, "\(watch.output)")
    #expect(watch.output.contains("duet verify: PASS (1 passed)"), "\(watch.output)")
    #expect(watch.interrupt() == 130)
  }

  /// SIGINT while a lane runs stops it and its group, ends the watch (exit
  /// 130) and leaves no process behind; SIGINT while waiting ends it at once.
  @Test func sigintLeavesNoProcess() throws {
    let tree = try makeTree("""
      version: 1
      lanes:
        # A sleep that is the point: the lane runs until the test interrupts the watch.
        - {name: slow, sh: "if [ -f src/slow ]; then echo $$ > slow.pid; exec sleep 30; fi", inputs: ["src/**"]}
      """)
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    try watch.edit("touch src/slow")
    #expect(watch.waitFor(timeout: 10) { _ in tree.exists("slow.pid") && ((try? tree.read("slow.pid")) ?? "").hasSuffix("\n") })
    let pid = Int32((try tree.read("slow.pid")).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    #expect(pid > 0 && kill(pid, 0) == 0, "the lane's sleep runs")
    let started = Date()
    #expect(watch.interrupt() == 130, "\(watch.output)")
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(kill(pid, 0) == -1 && errno == ESRCH, "the lane's process \(pid) outlived the watch")
    #expect(watch.output.contains("duet verify: INTERRUPTED"), "\(watch.output)")

    let idle = try WatchSession(try makeTree())
    #expect(idle.waitForWatching(), "\(idle.output)")
    let asked = Date()
    #expect(idle.interrupt() == 130)
    #expect(Date().timeIntervalSince(asked) < 2)
    #expect(idle.output.hasSuffix("duet verify --watch: stopped\n"), "\(idle.output)")
  }

  /// Issue 39, item 1: a folder of inputs moved out of the tree (as "move to
  /// Trash" does) is a change that names the files the last run saw, and the
  /// folder is no longer watched: an edit in its new place runs nothing. The
  /// edit outside comes before one inside; the change after it names only the
  /// file inside.
  @Test func aFolderMovedOutIsAChangeAndNoLongerWatched() throws {
    let tree = try makeTree("""
      version: 1
      lanes:
        - {name: sub, sh: "test -f src/sub/x.swift", inputs: ["src/**"]}
        - {name: docs, sh: "cat docs/*.md > /dev/null", inputs: ["docs/**"]}
      """)
    try tree.write("src/sub/x.swift", "let x = 1\n")
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent("duet-watch-trash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: outside) }
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    #expect(rename(tree.url.appendingPathComponent("src/sub").path, outside.appendingPathComponent("sub").path) == 0)
    #expect(watch.waitFor { $0.contains("duet verify: FAIL (1 failed: sub") }, "\(watch.output)")
    #expect(watch.output.contains("duet verify --watch: changed: src/sub/x.swift\n  sub  runs: "), "\(watch.output)")
    #expect(watch.waitForWatching(2), "\(watch.output)")
    #expect(try shell("echo 'let y = 2' >> sub/x.swift", in: outside).status == 0)
    try watch.edit("echo '# more' >> docs/guide.md")
    #expect(watch.waitFor { $0.contains("duet verify --watch: changed: docs/guide.md\n") }, "\(watch.output)")
    #expect(watch.count("duet verify --watch: changed: src/sub") == 1, "\(watch.output)")
    #expect(watch.interrupt() == 130)
  }

  /// Issue 39, item 2: the tree's folder removed and made again. The watch
  /// says the tree is gone (not "watching"), and once it is back watches it
  /// again: it runs what the new tree holds, and an edit after that runs too.
  @Test func theTreeRemovedAndMadeAgainIsWatchedAgain() throws {
    let tree = try makeTree()
    let parent = tree.url.deletingLastPathComponent()
    let saved = parent.appendingPathComponent("duet-watch-saved-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: saved) }
    let watch = try WatchSession(tree)
    #expect(watch.waitForWatching(), "\(watch.output)")
    let quoted = "'\(tree.url.path)'"
    let removed = try shell("cp -R \(quoted) '\(saved.path)' && rm -rf \(quoted)", in: parent)
    #expect(removed.status == 0, "\(removed.output)")
    #expect(watch.waitFor { $0.contains("duet verify --watch: the tree's folder \(tree.url.path) is gone") }, "\(watch.output)")
    let restored = try shell("mv '\(saved.path)' \(quoted) && echo 'let a = 2' > \(quoted)/src/a.swift", in: parent)
    #expect(restored.status == 0, "\(restored.output)")
    #expect(watch.waitFor { $0.contains("duet verify --watch: the tree's folder \(tree.url.path) is back") }, "\(watch.output)")
    #expect(watch.waitFor { _ in watch.count("duet verify: PASS") == 2 }, "\(watch.output)")
    try watch.edit("echo '# more' >> docs/guide.md")
    #expect(watch.waitFor { $0.contains("duet verify --watch: changed: docs/guide.md\n") }, "\(watch.output)")
    #expect(watch.waitFor { _ in watch.count("duet verify: PASS") == 3 }, "\(watch.output)")
    #expect(watch.interrupt() == 130)
  }

  /// Issue 39, item 3, on real inotify: while a run goes the watch reads no
  /// events, so a lane that makes more files than the kernel's queue holds
  /// (`max_queued_events`) and then a folder overflows it, and the folder's
  /// event is lost. The overflow is said, the tree rescanned, and the folder
  /// watched: an edit in it runs its lane.
  @Test func anOverflowDuringARunIsSaidAndTheTreeRescanned() throws {
    let mark = FileManager.default.temporaryDirectory.appendingPathComponent("duet-watch-flood-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: mark) }
    let limit = (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
    let flood = "i=0; while [ $i -le \(limit) ]; do : > bulk/f$i; i=$((i+1)); done; mkdir late"
    let tree = try makeTree("""
      version: 1
      lanes:
        - {name: late, sh: "if [ ! -f \(mark) ]; then touch \(mark); \(flood); fi", inputs: ["late/**"]}
      """)
    try tree.write("bulk/.keep", "")
    let watch = try WatchSession(tree)
    #expect(watch.waitFor(timeout: 60) { $0.contains("duet verify --watch: the kernel's queue of file events overflowed; rescanned the tree") },
            "\(watch.output.suffix(2000))")
    #expect(watch.waitForWatching(), "\(watch.output.suffix(2000))")
    try watch.edit("echo 'let l = 1' > late/l.swift")
    #expect(watch.waitFor { $0.contains("duet verify --watch: changed: late/l.swift\n  late  runs: ") }, "\(watch.output.suffix(2000))")
    #expect(watch.interrupt() == 130)
  }

  /// --watch with an option it cannot honour is a usage error (exit 2).
  @Test func watchWithJSONIsAUsageError() throws {
    let tree = try makeTree()
    let run = try tree.duet("verify", "--watch", "--json")
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("duet verify: error: --watch and --json cannot be combined"), "\(run.stderr)")
  }
}
