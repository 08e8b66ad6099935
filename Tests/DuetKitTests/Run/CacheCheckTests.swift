import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

/// Which lanes the cache serves, and the reason given for every lane it does not.
@Suite("Cache decisions")
struct CacheCheckTests {
  func lane(_ name: String, inputs: [String] = ["src/**"], needs: [String] = [], command: String = "make") -> Lane {
    var lane = Lane(name: name, step: .shell(command), location: SourceLocation(file: "m", line: 1, column: 1))
    lane.inputs = inputs
    lane.needs = needs
    return lane
  }

  /// The decisions, with the cache holding an entry for each lane whose
  /// history passed with these very inputs (what that pass left), unless `stored` is false.
  func decide(_ lanes: [Lane], tree: TemporaryFolder, history: [String: LastVerdict], noCache: Bool = false,
              stored: Bool = true) -> [String: String] {
    let manifest = Manifest(path: "m", lanes: lanes)
    let selected = Set(lanes.indices)
    let prints = InputFingerprint.compute(manifest: manifest, builtins: .standard, root: tree.url, selected: selected, git: GitStateOnce { nil }, duetVersion: "t", environment: [:])
    var entries: [Int: PassConditions] = [:]
    for (index, lane) in lanes.enumerated() where stored {
      if let last = history[lane.name], last.passed, last.fingerprint == prints.fingerprints[index] { entries[index] = last.judged }
    }
    let decisions = CacheCheck.decide(manifest: manifest, selected: selected, settled: [:], fingerprints: prints, history: history,
                                      entries: entries, noCache: noCache)
    return Dictionary(uniqueKeysWithValues: decisions.map { (lanes[$0.key].name, $0.value.text) })
  }

  /// The history a passing run of `lanes` leaves.
  func passed(_ lanes: [Lane], tree: TemporaryFolder, outcome: LaneOutcome = .pass) -> [String: LastVerdict] {
    let manifest = Manifest(path: "m", lanes: lanes)
    let prints = InputFingerprint.compute(manifest: manifest, builtins: .standard, root: tree.url, selected: Set(lanes.indices), git: GitStateOnce { nil }, duetVersion: "t", environment: [:])
    var history: [String: LastVerdict] = [:]
    for (i, lane) in lanes.enumerated() {
      history[lane.name] = LastVerdict(outcome: outcome, fingerprint: prints.fingerprints[i], parts: prints.parts[i])
    }
    return history
  }

  /// Unchanged inputs after a pass are cached; after a failure they run, and say so.
  @Test func passIsCachedFailureIsNot() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.swift", "a")
    let lanes = [lane("build")]
    #expect(decide(lanes, tree: tree, history: [:]) == ["build": "no passing run recorded"])
    #expect(decide(lanes, tree: tree, history: passed(lanes, tree: tree)) == ["build": "cached"])
    #expect(decide(lanes, tree: tree, history: passed(lanes, tree: tree, outcome: .fail)) == ["build": "failed last time with these inputs"])
    #expect(decide(lanes, tree: tree, history: passed(lanes, tree: tree), noCache: true) == ["build": "--no-cache"])
  }

  /// Issue 51, item 1: the entry is the one record of a pass. A history pass
  /// with these very inputs and no entry (the cache pruned) serves nothing.
  @Test func aHistoryPassWithoutAnEntryIsNotServed() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.swift", "a")
    let lanes = [lane("build")]
    #expect(decide(lanes, tree: tree, history: passed(lanes, tree: tree), stored: false)
            == ["build": "no cache entry holds its pass (the cache was pruned or cleared)"])
  }

  /// A cache entry under the lane's action key serves a tree whose history
  /// has no pass (a fresh clone): unless this history saw these inputs fail,
  /// a need of the lane runs, the entry's conditions do not cover the run, or
  /// the lane is forced to run (its outputs could not come back).
  @Test func anEntryServesWhatTheHistoryLacks() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.swift", "a")
    let lanes = [lane("tokens"), lane("app", needs: ["tokens"])]
    let manifest = Manifest(path: "m", lanes: lanes)
    let prints = InputFingerprint.compute(manifest: manifest, builtins: .standard, root: tree.url, selected: [0, 1], git: GitStateOnce { nil }, duetVersion: "t", environment: [:])
    func decide(history: [String: LastVerdict] = [:], entries: [Int: PassConditions], forced: [Int: String] = [:],
                run: CacheCheck.RunConditions = .init()) -> [String] {
      let decisions = CacheCheck.decide(manifest: manifest, selected: [0, 1], settled: [:], fingerprints: prints, history: history,
                                        entries: entries, forced: forced, noCache: false, run: run)
      return [decisions[0]?.text ?? "-", decisions[1]?.text ?? "-"]
    }
    let both: [Int: PassConditions] = [0: PassConditions(), 1: PassConditions()]
    #expect(decide(entries: [:]) == ["no passing run recorded", "a need will run (tokens)"])
    #expect(decide(entries: both) == ["cached", "cached"])
    #expect(decide(entries: [1: PassConditions()]) == ["no passing run recorded", "a need will run (tokens)"])
    #expect(decide(history: passed(lanes, tree: tree, outcome: .fail), entries: both)
            == ["failed last time with these inputs", "a need will run (tokens)"])
    #expect(decide(entries: both, run: .init(strict: true))[0] == "it last passed without --strict, so nothing says it leaves tracked files alone")
    #expect(decide(entries: [0: PassConditions(strict: true), 1: PassConditions(strict: true)], run: .init(strict: true)) == ["cached", "cached"])
    #expect(decide(entries: both, forced: [0: "its outputs cannot be restored: x"]) == ["its outputs cannot be restored: x", "a need will run (tokens)"])
  }

  /// Issue 54, item 4: the cache check reads the history's outcome words as
  /// the enum, decoded once where the row is read. A word this duet never
  /// writes on the newest row with these inputs (one that differs only in
  /// case, or another duet's) is that lane's verdict, and it serves nothing,
  /// saying why. Before, the query passed over the word and an older pass was
  /// served from the cache entry as if the newest run had passed.
  @Test func anUnknownOutcomeWordServesNothing() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.swift", "a")
    let lanes = [lane("kotlin")]
    let fingerprint = try #require(passed(lanes, tree: tree)["kotlin"]?.fingerprint)
    let store = try HistoryStore(path: tree.url.appendingPathComponent("h.sqlite").path)
    for (id, at) in [("a", 100.0), ("b", 200)] {
      let (run, steps) = HistoryStoreTests().sample(id, at: at, fingerprint: fingerprint)
      try store.record(run, steps: steps)
    }
    let manifest = Manifest(path: "m", lanes: lanes)
    let prints = InputFingerprint.compute(manifest: manifest, builtins: .standard, root: tree.url, selected: [0], git: GitStateOnce { nil }, duetVersion: "t", environment: [:])
    func decision() throws -> String? {
      CacheCheck.decide(manifest: manifest, selected: [0], settled: [:], fingerprints: prints, history: try store.lastVerdicts(lanes: ["kotlin"]),
                        entries: [0: PassConditions()], noCache: false)[0]?.text
    }
    #expect(try decision() == "cached")
    for word in ["PASS", "Pass", "passed-upstream"] {
      try store.db.execute("UPDATE steps SET lane_outcome = '\(word)' WHERE run_id = 'b'")
      #expect(try store.lastVerdicts(lanes: ["kotlin"])["kotlin"] == LastVerdict(outcome: nil, fingerprint: fingerprint), "\(word)")
      #expect(try decision() == "its last run with these inputs recorded an outcome this duet does not know (another duet's?), so no pass is served", "\(word)")
      #expect(try store.servablePasses(lanes: ["kotlin"]).isEmpty, "\(word)")
    }
    // A word that says nothing of the lane (skipped) is passed over, as before.
    try store.db.execute("UPDATE steps SET lane_outcome = 'skipped' WHERE run_id = 'b'")
    #expect(try decision() == "cached")
  }

  /// Changed, added and removed inputs are named, two at most, then how many more.
  @Test func namesChangedInputs() throws {
    let tree = try TemporaryFolder()
    for name in ["a", "b", "c"] { try tree.write("src/\(name).swift", name) }
    let lanes = [lane("build")]
    let history = passed(lanes, tree: tree)
    try tree.write("src/b.swift", "changed")
    #expect(decide(lanes, tree: tree, history: history) == ["build": "inputs changed (src/b.swift)"])
    try tree.write("src/d.swift", "new")
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("src/a.swift"))
    #expect(decide(lanes, tree: tree, history: history) == ["build": "inputs changed (src/b.swift, src/d.swift, 1 more)"])
  }

  /// A changed command is named; a dependent of a lane that runs runs too; no inputs is never cached.
  @Test func commandNeedsAndNoInputs() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.swift", "a")
    let lanes = [lane("gen"), lane("use", needs: ["gen"]), lane("lint", inputs: [])]
    let history = passed(lanes, tree: tree)
    #expect(decide(lanes, tree: tree, history: history) == ["gen": "cached", "use": "cached", "lint": "no inputs declared"])
    let changed = [lane("gen", command: "make all"), lane("use", needs: ["gen"]), lane("lint", inputs: [])]
    #expect(decide(changed, tree: tree, history: history) == ["gen": "command changed", "use": "a need will run (gen)", "lint": "no inputs declared"])
  }

  /// Without the parts of the last fingerprint (a merged store), the reason is still honest.
  @Test func withoutRecordedParts() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.swift", "a")
    let lanes = [lane("build")]
    let history = ["build": LastVerdict(outcome: .pass, fingerprint: "elsewhere")]
    #expect(decide(lanes, tree: tree, history: history) == ["build": "inputs or definition changed since it last passed"])
  }

  /// A pass recorded on another platform is not used here, and the reason says so.
  @Test func anotherPlatformIsNotUsed() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.swift", "a")
    let lanes = [lane("build")]
    var history = passed(lanes, tree: tree)
    var elsewhere = try #require(history["build"]?.parts)
    elsewhere.platform = "macos-arm64"
    history["build"] = LastVerdict(outcome: .pass, fingerprint: elsewhere.fingerprint, parts: elsewhere)
    #expect(decide(lanes, tree: tree, history: history) == ["build": "last passed on another platform (macos-arm64)"])
  }
}
