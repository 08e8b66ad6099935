import Foundation
import Testing
@testable import DuetCache
@testable import DuetHistory
@testable import DuetModel
@testable import DuetRun
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 54, item 10: the disk has a seam (`StoreDisk`), as the loop has its
/// poller. On `MemoryDisk`, cache decisions and restores are made with no
/// file touched (the roots below do not exist), and a capture can be made slow.
@Suite("The cache and the history on a disk in memory")
struct StoreDiskTests {
  static let root = URL(fileURLWithPath: "/nonexistent/duet-memory-disk")

  static func path(_ relative: String) -> String { root.path + "/" + relative }

  static func store(_ disk: MemoryDisk, root: URL = root) -> ContentStore {
    ContentStore(folder: ContentStore.defaultFolder(root: root), disk: disk)
  }

  /// A pass of `build`: two files (one executable) and a link, captured into the store.
  static func passedBuild(_ disk: MemoryDisk) -> ActionEntry {
    disk.addFile(path("build/a.txt"), "alpha\n")
    disk.addFile(path("build/sub/b.sh"), "echo beta\n", permissions: 0o755)
    disk.addLink(path("build/link"), to: "a.txt")
    let found = OutputFiles.capture(["build"], root: root, store: store(disk))
    return ActionEntry(key: Digest.sha256("build"), lane: "build", duetVersion: "t", strict: false, partial: false,
                       outputs: found.outputs, log: nil)
  }

  /// A restore brings back exactly what the pass recorded: the edited file
  /// and the removed one written again (with its mode), the link left as it
  /// was, another branch's file and a killed restore's temporary removed;
  /// every descriptor closed. No file on the real disk is touched.
  @Test func aRestoreWritesExactlyWhatThePassRecorded() {
    let disk = MemoryDisk()
    let entry = Self.passedBuild(disk)
    #expect(entry.outputs.map(\.path) == ["build/a.txt", "build/link", "build/sub/b.sh"])
    disk.addFile(Self.path("build/a.txt"), "edited\n")
    _ = disk.remove(Self.path("build/sub/b.sh"))
    disk.addFile(Self.path("build/Legacy.swift"), "// another branch\n")
    disk.addFile(Self.path("build/sub/.duet-tmp-Ab12Cd"), "half")

    #expect(OutputRestore.restore(entry, declared: ["build"], root: Self.root, store: Self.store(disk)) == .restored(files: 2))
    #expect(disk.listing(Self.path("build")) == ["a.txt", "link -> a.txt", "sub/", "sub/b.sh"])
    #expect(disk.text(Self.path("build/a.txt")) == "alpha\n")
    #expect(disk.text(Self.path("build/sub/b.sh")) == "echo beta\n")
    #expect(disk.status(Self.path("build/sub/b.sh")).map { $0.mode & 0o7777 } == 0o755)
    #expect(disk.openDescriptors == 0)
    #expect(OutputRestore.restore(entry, declared: ["build"], root: Self.root, store: Self.store(disk)) == .restored(files: 0))
    #expect(!FileManager.default.fileExists(atPath: Self.root.path))
  }

  /// A link out of the lane's outputs is refused, as one out of the tree, and
  /// a link where a folder of the outputs belongs: the lane runs, and nothing
  /// was written.
  @Test func aLinkOutOfTheOutputsIsRefused() {
    let disk = MemoryDisk()
    let store = Self.store(disk)
    func entry(_ outputs: [ActionEntry.Output]) -> ActionEntry {
      ActionEntry(key: Digest.sha256("links"), lane: "build", duetVersion: "t", strict: false, partial: false, outputs: outputs, log: nil)
    }
    let intoSources = OutputRestore.restore(entry([.link(path: "build/escape", target: "../src/secret")]), declared: ["build"],
                                            root: Self.root, store: store)
    #expect(intoSources == .cannot("its cache entry has build/escape link to ../src/secret, outside the lane's outputs"))
    let outOfTree = OutputRestore.restore(entry([.link(path: "build/escape", target: "../../etc/passwd")]), declared: ["build"],
                                          root: Self.root, store: store)
    #expect(outOfTree == .cannot("its cache entry has build/escape link to ../../etc/passwd, outside the tree"))
    #expect(disk.kind(Self.path("build/escape")) == nil)

    disk.addLink(Self.path("build"), to: "/elsewhere")
    let through = OutputRestore.restore(entry([.link(path: "build/ok", target: "x")]), declared: ["build"], root: Self.root, store: store)
    #expect(through == .cannot("build is a symbolic link where the outputs need a folder"))
    #expect(disk.listing("/elsewhere") == [])
  }

  /// Cache decisions without a disk: `tokens` has an entry in the store, so it
  /// is served and its output comes back from it; `app` has none and runs.
  /// Then the blob goes: `tokens` cannot be restored and runs, and says why.
  @Test func cacheDecisionsAndTheRestoreThatFollows() throws {
    let disk = MemoryDisk()
    let root = VerifyPipelineTests.root
    let store = Self.store(disk, root: root)
    disk.addFile(root.path + "/gen/tokens.swift", "let tokens = 1\n")
    let captured = OutputFiles.capture(["gen/tokens.swift"], root: root, store: store)
    let key = LaneCache.actionKey(fingerprint: "f-tokens", outputs: ["gen/tokens.swift"])
    let entry = ActionEntry(key: key, lane: "tokens", duetVersion: "t", strict: false, partial: false, outputs: captured.outputs, log: nil)
    try store.writeEntry(entry.encoded(), key: key)
    _ = disk.remove(root.path + "/gen/tokens.swift")

    let plan = try VerifyPipelineTests.plan()
    let cache = LaneCache(store: store, remote: nil)
    cache.lookUp([0: key, 1: LaneCache.actionKey(fingerprint: "f-app", outputs: [])], lanes: plan.manifest.lanes)
    var rounds = CacheRounds(options: plan.options)
    rounds.decide(plan, fingerprints: VerifyPipelineTests.keyed, history: [:], entries: cache.entries)
    #expect(rounds.decisions == [0: .cached, 1: .runs("no passing run recorded")])
    let restores = cache.restore(rounds.pending, lanes: plan.manifest.lanes, root: root, logPaths: [:])
    #expect(restores.mapValues { $0.result } == [0: .restored(files: 1)])
    #expect(rounds.absorb(restores) == .keyAgain)
    #expect(disk.text(root.path + "/gen/tokens.swift") == "let tokens = 1\n")
    let served = rounds.served(plan.manifest.lanes, fingerprints: VerifyPipelineTests.keyed, history: [:], entries: cache.entries)
    #expect(served[0]?.reason == "a pass with these inputs is in the cache" && served[0]?.restoredFiles == 1)

    for case .file(_, let digest, _) in entry.outputs { _ = disk.remove(store.blobPath(digest.hash)) }
    _ = disk.remove(root.path + "/gen/tokens.swift")
    var again = CacheRounds(options: plan.options)
    again.decide(plan, fingerprints: VerifyPipelineTests.keyed, history: [:], entries: cache.entries)
    #expect(again.absorb(cache.restore(again.pending, lanes: plan.manifest.lanes, root: root, logPaths: [:])) == .decideAgain)
    again.decide(plan, fingerprints: VerifyPipelineTests.keyed, history: [:], entries: cache.entries)
    #expect(again.decisions[0] == .runs("its outputs cannot be restored: the cache lacks 1 of its output file(s)"))
    #expect(!FileManager.default.fileExists(atPath: root.path))
  }

  /// `store` passes at once; storing its outputs is held on the disk (the
  /// fake blocks as the file is opened to be copied) until `slow` has ended
  /// at its 1.5 s deadline, or the gate's patience runs out.
  private func runWithSlowCapture(workers: AttemptWorkers, patience: Double = 3)
    -> (gate: LoopOnlyDecidesTests.Gate, order: [String], by: [String: LaneRecord], cache: LaneCache, lanes: [Lane]) {
    let gate = LoopOnlyDecidesTests.Gate(patience: patience)
    let disk = MemoryDisk { path in if path.hasSuffix("/build/store/app.bin") { _ = gate.pass() } }
    disk.addFile(Self.path("build/store/app.bin"), "app\n")
    let cache = LaneCache(store: Self.store(disk), remote: nil)
    let poller = FakePoller(delays: ["store": 0.01])
    poller.behave = { name, _ in name == "slow" ? .init(seconds: 0, hangs: true) : .init(seconds: 0.01) }
    var order: [String] = []
    let all = lanes([("store", []), ("slow", [])], outputs: ["store": ["build/store"]])
    let (_, by) = schedule(all, runner: poller, jobs: 2,
                           outputs: { index, lane in cache.capture(index, lane: lane, root: Self.root) },
                           workers: workers, timeouts: ["slow": 1.5],
                           events: { event in
                             guard case .finished(let record, _, _) = event else { return }
                             order.append(record.name)
                             if record.name == "slow" { gate.open() }
                           })
    return (gate, order, by, cache, all)
  }

  /// A slow capture, faked: the loop stores outputs on a worker, so the
  /// deadline fires while `store`'s outputs are held, and `store` finishes
  /// after it, still a pass; the outputs it captured make its entry.
  @Test func aSlowCaptureHoldsNoDeadlineBack() throws {
    let (gate, order, by, cache, all) = runWithSlowCapture(workers: .threads)
    #expect(gate.wasOpened, "the capture held the loop: the deadline waited for it")
    #expect(order == ["slow", "store"])
    #expect(by["slow"]?.outcome == .timeout)
    #expect(by["store"]?.outcome == .pass)

    let key = Digest.sha256("store")
    cache.save([0: (key: key, judged: PassConditions(strict: false, partial: false), logPath: nil)], lanes: all, root: Self.root,
               duetVersion: "t")
    let saved = try ActionEntry.decode(try #require(cache.store.entryBytes(key)))
    #expect(saved.outputs.map(\.path) == ["build/store/app.bin"])
    #expect(saved.blobs.allSatisfy(cache.store.contains))
  }

  /// The same slow capture on the loop's own thread: the deadline waits for
  /// it. This is what shows the fake's hold is on the capture's path.
  @Test func aSlowCaptureOnTheLoopsThreadHoldsTheDeadline() {
    let (gate, order, _, _, _) = runWithSlowCapture(workers: .here, patience: 0.3)
    #expect(!gate.wasOpened)
    #expect(order == ["store", "slow"])
  }

  /// `cache prune` and `cache verify` on the fake disk: the least recently
  /// used blob goes first, then the entry that named it and a write's
  /// leftover; a blob whose bytes are not its name is found and removed.
  @Test func pruneAndVerifyWithoutTheDisk() throws {
    let disk = MemoryDisk()
    let store = Self.store(disk)
    let a = try store.insert(Array("aaaa".utf8)), b = try store.insert(Array("bbbb".utf8)), c = try store.insert(Array("cccc".utf8))
    store.touch(a)
    let key = Digest.sha256("names b")
    let entry = ActionEntry(key: key, lane: "x", duetVersion: "t", strict: false, partial: false,
                            outputs: [.file(path: "out/b", digest: b, mode: 0o644)], log: nil)
    try store.writeEntry(entry.encoded(), key: key)
    disk.addFile(store.folder.path + "/tmp/blob-left", "half")

    let pruned = StoreMaintenance.prune(store, maxBytes: 8)
    #expect(pruned.blobs == 1 && pruned.bytes == 4 && pruned.entries == 1)
    #expect(!store.contains(b) && store.contains(a) && store.contains(c))
    #expect(store.entryBytes(key) == nil)
    #expect(disk.listing(store.folder.path + "/tmp") == [])

    disk.addFile(store.blobPath(c.hash), "CCCC")
    let verified = StoreMaintenance.verify(store)
    #expect(verified.checked == 2 && verified.damaged == [c.hash])
    #expect(disk.kind(store.blobPath(c.hash)) == nil)
    #expect(!FileManager.default.fileExists(atPath: Self.root.path))
  }

  /// The history store's file handling on the seam: a FIFO or a folder where
  /// the store belongs is never opened (SQLite never sees it), and says what it is.
  @Test func aHistoryPathThatIsNoFileIsNeverOpened() {
    let disk = MemoryDisk()
    let fifo = Self.path(".duet/history.sqlite")
    disk.addFIFO(fifo)
    let opened = HistoryRecorder.open(path: fifo, disk: disk)
    #expect(opened.store == nil)
    #expect(opened.warnings == ["history: \(fifo) is a FIFO (named pipe), not a store file; this run is not recorded"])
    let folder = Self.path("other/history.sqlite")
    disk.addFolder(folder)
    #expect(throws: HistoryError.self) { try HistoryStore(path: folder, disk: disk) }
    #expect(!FileManager.default.fileExists(atPath: Self.root.path))
  }
}
