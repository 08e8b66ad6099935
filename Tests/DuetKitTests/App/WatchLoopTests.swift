import Foundation
import Testing
@testable import DuetApp
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport

/// The watch loop on a scripted change source and a fake clock (issue 39):
/// what it runs and says for a burst, the tree gone and back, an overflow and
/// a folder past the watch limit, with no kernel, no lane process and no sleep.
@Suite("The watch loop on a scripted change source")
struct WatchLoopTests {
  /// A tree of two lanes (`swift` reads src/, `docs` reads docs/), the watch's
  /// printed lines, and the lanes each run started.
  final class Harness: @unchecked Sendable {
    let tree: TemporaryFolder
    let request: VerifyRequest
    private let said = Locked<[String]>([])
    private(set) var pollers: [FakePoller] = []

    init() throws {
      tree = try TemporaryFolder()
      try tree.write("lanes/manifest.yaml", """
        version: 1
        lanes:
          - {name: swift, sh: swift, inputs: ["src/**"]}
          - {name: docs, sh: docs, inputs: ["docs/**"]}
        """)
      try tree.write("src/a.swift", "let a = 1\n")
      try tree.write("docs/guide.md", "# guide\n")
      var options = VerifyOptions()
      options.noCache = true
      var request = VerifyRequest(root: tree.url, options: options, duetVersion: "test", environment: ["PATH": "/usr/bin:/bin"])
      self.request = request
    }

    /// Watches with `source` until its script is played out; the exit code.
    func watch(_ source: ScriptedChangeSource) throws -> Int32 {
      var request = self.request
      request.runLoop = { [self] in
        let poller = FakePoller()
        pollers.append(poller)
        return (poller, poller.clock)
      }
      let observer = WatchObserver.printing(request, width: 100) { [said] printout in
        said.withLock { lines in
          for item in printout.items {
            switch item {
            case .out(let text, _), .err(let text): lines.append(text.text)
            default: continue
            }
          }
        }
      }
      return try DuetApp.watch(request, source: source, clock: source.clock, control: WatchControl(), verifyObserver: VerifyObserver(),
                               observer: observer)
    }

    var lines: [String] { said.withLock { $0 } }
    /// The lanes each run started, one list per run.
    var runs: [[String]] { pollers.map { $0.startOrder.filter { $0 == "swift" || $0 == "docs" } } }
    func count(_ text: String) -> Int { lines.filter { $0.contains(text) }.count }
  }

  /// Issue 50, item 6: `lanes/quarantine.yaml` is an input of the run's
  /// verdict: an edit to it re-judges the lanes whose entries it changed (and
  /// no other), a save that changes no entry runs nothing, and with another
  /// file changed the lanes that file affects run too.
  @Test func aQuarantineEditRejudgesTheLanesItTouches() throws {
    let harness = try Harness()
    let quarantine = harness.tree.url.appendingPathComponent("lanes/quarantine.yaml")
    func write(_ text: String) -> () -> Void { { try? Data(text.utf8).write(to: quarantine) } }
    let entry = "quarantine:\n  - {test: app.T.flips, lane: docs, reason: flips, until: 2099-12-31}\n"
    let source = ScriptedChangeSource([
      .init(at: 1, events: [.changed(["lanes/quarantine.yaml"])], before: write(entry)),
      .init(at: 5, events: [.changed(["lanes/quarantine.yaml"])], before: write("# reviewed\n" + entry)),
      .init(at: 9, events: [.changed(["lanes/quarantine.yaml", "src/a.swift"])], before: write("quarantine: []\n")),
    ])
    #expect(try harness.watch(source) == 0)
    #expect(harness.runs.map { $0.sorted() } == [["docs", "swift"], ["docs"], ["docs", "swift"]], "\(harness.lines)")
    #expect(harness.lines.contains { $0.contains("docs") && $0.contains("its entries in lanes/quarantine.yaml changed") }, "\(harness.lines)")
  }

  /// Changes that come within the quiet time of each other (0.2 s on the
  /// fake clock) are one burst and one run; one that comes later is a run of its own.
  @Test func aBurstIsOneRun() throws {
    let harness = try Harness()
    let source = ScriptedChangeSource([
      .init(at: 1, events: [.changed(["src/a.swift"])]),
      .init(at: 1.1, events: [.changed(["docs/guide.md"])]),
      .init(at: 5, events: [.changed(["docs/guide.md"])]),
    ])
    #expect(try harness.watch(source) == 0)
    #expect(harness.runs.map { $0.sorted() } == [["docs", "swift"], ["docs", "swift"], ["docs"]], "\(harness.lines)")
    #expect(harness.lines.contains("duet verify --watch: changed: docs/guide.md, src/a.swift"), "\(harness.lines)")
    #expect(harness.lines.contains("duet verify --watch: changed: docs/guide.md"), "\(harness.lines)")
    #expect(source.timeouts.contains { ($0 ?? 0) > 0 && ($0 ?? 1) <= 0.2 }, "the burst settles on the quiet time")
  }

  /// Changes that never stop (an event every 0.1 s for 3 s) are cut into
  /// bursts of at most 2 s on the clock, each a run: the watch does not wait forever.
  @Test func aBurstEndsAfterTwoSeconds() throws {
    let harness = try Harness()
    let source = ScriptedChangeSource((0...30).map { .init(at: 1 + Double($0) / 10, events: [.changed(["src/a.swift"])]) })
    #expect(try harness.watch(source) == 0)
    #expect(harness.runs.map { $0.sorted() } == [["docs", "swift"], ["swift"], ["swift"]], "\(harness.lines)")
  }

  /// Issue 39, item 2: the tree gone is said once, and "watching" is not said
  /// while it is gone; once it is back, what the rescan found runs, and edits after it too.
  @Test func theTreeGoneIsSaidAndItsReturnRuns() throws {
    let harness = try Harness()
    let source = ScriptedChangeSource([
      .init(at: 1, events: [.changed(["src/a.swift"]), .rootGone]),
      .init(at: 4, events: [.rootBack, .changed(["docs/guide.md", "src/a.swift"])]),
      .init(at: 9, events: [.changed(["src/a.swift"])]),
    ])
    #expect(try harness.watch(source) == 0)
    let lines = harness.lines
    let root = harness.request.root.path
    let gone = try #require(lines.firstIndex(of: "duet verify --watch: the tree's folder \(root) is gone (removed or moved away); waiting for it to come back"), "\(lines)")
    let back = try #require(lines.firstIndex(of: "duet verify --watch: the tree's folder \(root) is back; rescanned it and watching it again"), "\(lines)")
    #expect(gone < back)
    #expect(!lines[gone..<back].contains { $0.contains("for changes (Ctrl-C to stop)") }, "\(lines)")
    #expect(harness.count("is gone") == 1)
    #expect(harness.runs.map { $0.sorted() } == [["docs", "swift"], ["docs", "swift"], ["swift"]], "\(lines)")
  }

  /// Issue 39, item 3: an overflow is said in one line, and what the rescan
  /// found runs; folders past the watch limit are said in one line (every
  /// folder, one reason) and what their scan finds runs too.
  @Test func anOverflowAndTheWatchLimitAreSaidAndRun() throws {
    let harness = try Harness()
    let reason = "the system's limit of inotify watches is reached; raise fs.inotify.max_user_watches (sysctl)"
    let source = ScriptedChangeSource([
      .init(at: 1, events: [.overflow, .changed(["src/made-in-the-overflow/b.swift"])]),
      .init(at: 4, events: [.watchFailed(folder: "src/x", reason: reason), .watchFailed(folder: "src/y", reason: reason)]),
      .init(at: 4.1, events: [.changed(["src/x/c.swift"])]),
    ])
    #expect(try harness.watch(source) == 0)
    let lines = harness.lines
    #expect(harness.count("the kernel's queue of file events overflowed; rescanned the tree") == 1, "\(lines)")
    #expect(lines.contains("duet verify --watch: cannot watch src/x, src/y: \(reason); rescanned the tree, and scanning those folders every second instead"), "\(lines)")
    #expect(harness.count("cannot watch") == 1, "\(lines)")
    #expect(lines.contains("duet verify --watch: changed: src/made-in-the-overflow/b.swift"), "\(lines)")
    #expect(lines.contains("duet verify --watch: changed: src/x/c.swift"), "\(lines)")
    #expect(harness.runs.map { $0.sorted() } == [["docs", "swift"], ["swift"], ["swift"]], "\(lines)")
  }

  /// What a run changed is drained after it and run once; the same files
  /// again after that run are a lane writing them: named, not run.
  @Test func changesDuringARunRunOnceAfterIt() throws {
    let harness = try Harness()
    let source = ScriptedChangeSource([], drains: [[.changed(["src/gen.swift"])], [.changed(["src/gen.swift"])]])
    #expect(try harness.watch(source) == 0)
    #expect(harness.runs.map { $0.sorted() } == [["docs", "swift"], ["swift"]], "\(harness.lines)")
    #expect(harness.count("changed during the run (not run again, a lane may have written them): src/gen.swift") == 1, "\(harness.lines)")
  }
}
