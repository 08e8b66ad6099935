import Foundation
import Testing
@testable import DuetCache
@testable import DuetRun
@testable import DuetHistory
@testable import DuetApp
@testable import DuetModel
@testable import DuetSupport

/// Issue 55, item 1: a team's runs travel through the remote cache. A run is
/// uploaded under a slot of its commit and pulled by another clone with the
/// checks of `history merge`; runs of one commit accumulate; pulling twice
/// adds nothing; a run never carries a path of its machine or an env value.
@Suite("Runs through the remote cache")
struct SharedHistoryTests {
  static let commit = String(repeating: "c1", count: 20)
  static let other = String(repeating: "d2", count: 20)

  /// A machine: its own history store and content store.
  final class Machine {
    let folder: TemporaryFolder
    let store: HistoryStore
    let content: ContentStore
    init() throws {
      folder = try TemporaryFolder()
      store = try HistoryStore(path: folder.url.appendingPathComponent(".duet/history.sqlite").path)
      content = ContentStore(folder: folder.url.appendingPathComponent(".duet/cache"))
    }

    func remote(_ server: MemoryCacheServer, upload: Bool = true, key: String? = nil) -> RemoteCache {
      RemoteCache(transport: server, name: "mem://cache", upload: upload, signingKey: key.map { Array($0.utf8) }, store: content)
    }

    /// Records a run of lane `unit` (one attempt, its parts, one test case) on `commit` from `origin`.
    @discardableResult
    func record(_ id: String, commit: String?, origin: String, passed: Bool = true, at time: Double = 1_800_000_000,
                root: String = "/home/alice/app", message: String? = nil) throws -> String {
      var parts = FingerprintParts(command: Digest.sha256("make test"), dir: ".", env: Digest.sha256(""), duet: nil)
      parts.files = [.init(path: "src/a.txt", sha256: Digest.sha256("a"))]
      parts.envInputs["FLAVOR"] = EnvInputDigest.part(name: "FLAVOR", value: "debug", environment: [:])
      let logID = HistoryStoreTests.logID(id)
      let run = RunRow(id: id, logID: logID, started: time, ended: time + 2, command: "duet verify --junit \(root)/junit.xml", root: root,
                       gitCommit: commit, host: "laptop", outcome: passed ? .pass : .fail, jobs: 2, duetVersion: "test", origin: origin)
      let step = StepRow(runID: id, lane: "unit", attempt: 1, started: time, duration: 1, attemptOutcome: passed ? .pass : .fail,
                         laneOutcome: passed ? .pass : .fail, exitCode: passed ? 0 : 1, fingerprint: parts.fingerprint,
                         logPath: ".duet/logs/\(logID)/unit.log")
      let test = TestCaseRow(runID: id, lane: "unit", attempt: 1, suite: "app.CartTest", name: "adds", outcome: passed ? .pass : .fail,
                             duration: 0.1, message: passed ? nil : (message ?? "\(root)/src/Cart.kt:3: expected 2"), report: "build/TEST-app.xml", ordinal: 0)
      try store.record(run, steps: [step], parts: ["unit": parts], tests: [test])
      return parts.fingerprint
    }

    func upload(_ ids: Set<String>, to server: MemoryCacheServer, key: String? = nil) -> [String] {
      let remote = remote(server, key: key)
      let warnings = SharedHistory.upload(runs: ids, of: store, remote: remote, contentStore: content,
                                          scrub: HistoryStore.Scrub(root: "/home/alice/app", home: "/home/alice"), duetVersion: "test")
      return remote.takeWarnings() + warnings
    }

    func pull(_ commits: [String], from server: MemoryCacheServer, key: String? = nil) -> SharedHistory.Pulled {
      SharedHistory.pull(commits: commits, into: store, remote: remote(server, upload: false, key: key), contentStore: content)
    }
  }

  /// A run uploaded by CI is pulled by a laptop with its steps, test cases,
  /// origin and fingerprint parts; a second pull finds it and adds nothing.
  @Test func aRunTravelsAndPullingTwiceAddsNothing() throws {
    let server = MemoryCacheServer()
    let ci = try Machine(), laptop = try Machine()
    let fingerprint = try ci.record("run-ci", commit: Self.commit, origin: "ci linux-1", passed: false)
    #expect(ci.upload(["run-ci"], to: server) == [])
    #expect(server.keys(.ac) == ["ac/" + CommitSlots.key(commit: Self.commit, slot: 0)])

    let first = laptop.pull([Self.commit, Self.other], from: server)
    #expect(first == SharedHistory.Pulled(commits: 2, found: 1, merged: 1, steps: 1, origins: ["ci linux-1": 1]), "\(first)")
    let runs = try laptop.store.recentRuns(limit: 10)
    #expect(runs.map(\.id) == ["run-ci"] && runs.first?.origin == "ci linux-1" && runs.first?.root == "")
    #expect(try laptop.store.db.query("SELECT count(*) FROM test_cases").first?.first?.int == 1)
    let parts = try laptop.store.db.query("SELECT parts FROM fingerprint_parts WHERE fingerprint = ?", [.text(fingerprint)])
    #expect(parts.first?.first?.text.flatMap(FingerprintParts.parse)?.fingerprint == fingerprint)

    let again = laptop.pull([Self.commit], from: server)
    #expect(again == SharedHistory.Pulled(commits: 1, found: 1, merged: 0, steps: 0, origins: [:]), "\(again)")
    #expect(try laptop.store.runCount() == 1)
  }

  /// Several machines and re-runs record runs of one commit: each upload takes
  /// the next slot and none hides another; uploading a run again takes none.
  @Test func runsOfOneCommitAccumulate() throws {
    let server = MemoryCacheServer()
    let machines = try (0..<3).map { _ in try Machine() }
    for (index, machine) in machines.enumerated() {
      try machine.record("run-\(index)", commit: Self.commit, origin: "ci job-\(index)", at: 1_800_000_000 + Double(index))
      #expect(machine.upload(["run-\(index)"], to: server) == [])
    }
    #expect(machines[0].upload(["run-0"], to: server) == [])
    #expect(server.keys(.ac).count == 3)
    let reader = try Machine()
    let pulled = reader.pull([Self.commit], from: server)
    #expect(pulled.merged == 3 && pulled.found == 3, "\(pulled)")
    #expect(Set(try reader.store.recentRuns(limit: 10).compactMap(\.origin)) == ["ci job-0", "ci job-1", "ci job-2"])
  }

  /// What travels names no path of the machine (its root, its home) and no
  /// env-input's value, nor that value's bare SHA-256.
  @Test func aTravellingRunHoldsNoPathOrValue() throws {
    let server = MemoryCacheServer()
    let ci = try Machine()
    try ci.record("run-ci", commit: Self.commit, origin: "ci linux-1", passed: false)
    #expect(ci.upload(["run-ci"], to: server) == [])
    var uploaded: [UInt8] = []
    for key in server.keys(.cas) { uploaded += server.object(RemoteKey(.cas, String(key.dropFirst(4)))) ?? [] }
    let text = String(decoding: uploaded, as: UTF8.self)
    #expect(!text.isEmpty && text.contains("run-ci"))
    for secret in ["/home/alice", "debug", Digest.sha256("debug")] {
      #expect(!text.contains(secret), "the uploaded run holds \(secret)")
    }
    #expect(text.contains("src/Cart.kt:3: expected 2") && text.contains("--junit <path>") == false && text.contains("--junit junit.xml"))
  }

  /// With `DUET_REMOTE_CACHE_KEY` set, a reader takes only slots signed with it;
  /// an unsigned slot is said once and nothing of it is merged.
  @Test func aReaderWithAKeyTakesOnlySignedRuns() throws {
    let server = MemoryCacheServer()
    let ci = try Machine()
    try ci.record("run-ci", commit: Self.commit, origin: "ci linux-1")
    #expect(ci.upload(["run-ci"], to: server) == [])
    let reader = try Machine()
    let refused = reader.pull([Self.commit], from: server, key: "team-key")
    #expect(refused.merged == 0 && refused.warnings.count == 1 && refused.warnings[0].contains("not signed with DUET_REMOTE_CACHE_KEY"), "\(refused)")
    // Signed, in the next slot (the unsigned one is neither served nor overwritten).
    try ci.record("run-ci-2", commit: Self.commit, origin: "ci linux-1", at: 1_800_000_100)
    #expect(ci.upload(["run-ci-2"], to: server, key: "team-key").allSatisfy { $0.contains("not signed") })
    let signed = reader.pull([Self.commit], from: server, key: "team-key")
    let merged = try reader.store.recentRuns(limit: 5).map(\.id)
    #expect(signed.merged == 1 && merged == ["run-ci-2"], "\(signed)")
  }

  /// A run found under another commit's slot (a forger's entry) is refused:
  /// every run merged ran on the commit whose slot named it.
  @Test func aRunUnderAnotherCommitsSlotIsRefused() throws {
    let server = MemoryCacheServer()
    let ci = try Machine()
    try ci.record("run-other", commit: Self.other, origin: "ci linux-1")
    #expect(ci.upload(["run-other"], to: server) == [])
    let entry = try #require(server.object(RemoteKey(.ac, CommitSlots.key(commit: Self.other, slot: 0))).map { try ActionEntry.decode($0) })
    let blob = try #require(CommitSlots.runs(in: entry).first?.blob)
    let forged = CommitSlots.entry(commit: Self.commit, slot: 0, runIDs: ["run-other"], blob: blob, duetVersion: "test")
    server.store(forged.encoded(), at: RemoteKey(.ac, forged.key))
    let reader = try Machine()
    let pulled = reader.pull([Self.commit], from: server)
    #expect(pulled.merged == 0 && pulled.warnings.contains { $0.contains("ran on commit \(Self.other)") }, "\(pulled)")
    #expect(try reader.store.runCount() == 0)
  }

  /// A store whose parts are not their fingerprint's is refused whole by merge.
  @Test func partsThatAreNotTheirFingerprintAreRefused() throws {
    let ci = try Machine()
    let fingerprint = try ci.record("run-ci", commit: Self.commit, origin: "ci linux-1")
    try ci.store.db.execute("UPDATE fingerprint_parts SET parts = replace(parts, 'src/a.txt', 'src/b.txt') WHERE fingerprint = '\(fingerprint)'")
    let reader = try Machine()
    #expect(throws: HistoryError.self) { try reader.store.merge(from: ci.store.path) }
    #expect(try reader.store.runCount() == 0)
  }

  /// An env-input's value is kept as a keyed hash: not the value, not its bare
  /// digest; the team's key makes another one, so a guess cannot be tested without it.
  @Test func anEnvInputIsAKeyedHash() {
    let plain = EnvInputDigest.part(name: "FLAVOR", value: "debug", environment: [:])
    let keyed = EnvInputDigest.part(name: "FLAVOR", value: "debug", environment: ["DUET_REMOTE_CACHE_KEY": "team-key"])
    #expect(plain.hasPrefix("hmac-duet:") && keyed.hasPrefix("hmac-team:"))
    #expect(!plain.contains(Digest.sha256("debug")) && !keyed.contains(Digest.sha256("debug")))
    #expect(plain != keyed && plain != EnvInputDigest.part(name: "FLAVOR", value: "release", environment: [:]))
  }
}
