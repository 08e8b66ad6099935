import Foundation
import Testing
@testable import DuetApp
@testable import DuetCache
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

/// Issue 54, item 3: verify is a pipeline of values (plan, cache decisions,
/// run, verdict, record), and each pure step is tested here alone, with
/// hand-built values and no tree on disk: the root below does not exist.
@Suite("Verify's steps, each alone")
struct VerifyPipelineTests {
  static let root = URL(fileURLWithPath: "/nonexistent/duet-pipeline-test")

  static func lane(_ name: String, needs: [String] = [], outputs: [String] = []) -> Lane {
    var lane = Lane(name: name, step: .shell("make"), location: SourceLocation(file: "m", line: 1, column: 1))
    lane.inputs = ["src/**"]
    lane.needs = needs
    lane.outputs = outputs
    return lane
  }

  /// `tokens`, and `app` that needs it; both keyed, both selected.
  static func plan(_ options: VerifyOptions = VerifyOptions()) throws -> VerifyPlan {
    let manifest = Manifest(path: "m", lanes: [lane("tokens", outputs: ["gen/tokens.swift"]), lane("app", needs: ["tokens"])])
    return try VerifyPlan(root: root, manifest: manifest, builtins: .standard, options: options, environment: [:])
  }

  static let keyed = InputFingerprint.Result(fingerprints: [0: "f-tokens", 1: "f-app"], parts: [:], cacheable: [0, 1])

  static func entry(_ lane: String, strict: Bool = false) -> ActionEntry {
    ActionEntry(key: "k-" + lane, lane: lane, duetVersion: "t", strict: strict, partial: false, outputs: [], log: nil)
  }

  static func record(_ index: Int, _ name: String, _ outcome: LaneOutcome, attempts: Int = 1) -> LaneVerdict {
    let tried = (0..<attempts).map { n in
      LaneAttempt(attempt: n + 1, outcome: outcome == .fail ? .fail : .pass, exitCode: outcome == .fail ? 1 : 0, started: 0, duration: 1,
                    logPath: ".duet/logs/r/\(name).log", tail: LogTail())
    }
    return LaneVerdict(index: index, name: name, outcome: outcome, attempts: tried)
  }

  /// The plan step: weights from the recorded durations, 1 for a lane never
  /// recorded, never 0 (a lane that took no time still has a place in the order).
  @Test func weightsComeFromDurations() {
    #expect(VerifyPipeline.weights(["a", "b", "c"], durations: ["a": 12.5, "c": 0]) == [12.5, 1, 0.001])
  }

  /// The plan step: only a selected lane whose fingerprint covers its inputs gets an action key.
  @Test func onlyCacheableSelectedLanesAreKeyed() throws {
    let lanes = try Self.plan().manifest.lanes
    var found = Self.keyed
    found.cacheable = [0]
    let keys = VerifyPipeline.actionKeys(found, selected: [0, 1], lanes: lanes)
    #expect(keys == [0: LaneCache.actionKey(fingerprint: "f-tokens", outputs: ["gen/tokens.swift"])])
    #expect(VerifyPipeline.actionKeys(Self.keyed, selected: [1], lanes: lanes).keys.sorted() == [1])
  }

  /// Cache decisions: with an entry for each lane, both are served and both
  /// wait for their outputs to come back; a restore that cannot be done makes
  /// that lane run, and with it the lane that needs it.
  @Test func aRefusedRestoreRunsTheLaneAndWhatNeedsIt() throws {
    let plan = try Self.plan()
    var rounds = CacheRounds(options: plan.options)
    let entries: VerifyPipeline.Entries = [0: (Self.entry("tokens"), .local), 1: (Self.entry("app"), .remote)]
    rounds.decide(plan, fingerprints: Self.keyed, history: [:], entries: entries)
    #expect(rounds.decisions == [0: .cached, 1: .cached])
    #expect(rounds.pending == [0, 1])
    #expect(rounds.absorb([0: (.cannot("gen/tokens.swift is a folder"), nil), 1: (.restored(files: 0), nil)]) == .decideAgain)
    rounds.decide(plan, fingerprints: Self.keyed, history: [:], entries: entries)
    #expect(rounds.decisions == [0: .runs("its outputs cannot be restored: gen/tokens.swift is a folder"), 1: .runs("a need will run (tokens)")])
    #expect(rounds.pending == [])
  }

  /// Cache decisions: restored files may be inputs, so a restore that wrote
  /// some asks for the tree to be keyed again, three times at most; one that
  /// wrote none ends the rounds.
  @Test func writtenFilesKeyTheTreeAgainAFewTimes() throws {
    var rounds = CacheRounds(options: try Self.plan().options)
    let wrote: [Int: CacheRounds.Restore] = [0: (.restored(files: 2), ".duet/logs/r/tokens.log")]
    #expect((1...4).map { _ in rounds.absorb(wrote) } == [.keyAgain, .keyAgain, .keyAgain, .done])
    #expect(rounds.absorb([1: (.restored(files: 0), nil)]) == .done)
    #expect(rounds.restored[0]?.files == 2 && rounds.restored[0]?.log == ".duet/logs/r/tokens.log")
  }

  /// Cache decisions: a served lane's record says where its pass came from
  /// (its own history, the cache, the remote cache) and what came back.
  @Test func aServedLaneSaysWhereItsPassCameFrom() throws {
    let plan = try Self.plan()
    var rounds = CacheRounds(options: plan.options)
    let entries: VerifyPipeline.Entries = [0: (Self.entry("tokens"), .local), 1: (Self.entry("app"), .remote)]
    rounds.decide(plan, fingerprints: Self.keyed, history: [:], entries: entries)
    _ = rounds.absorb([0: (.restored(files: 1), "tokens.log"), 1: (.restored(files: 0), nil)])
    let served = rounds.served(plan.manifest.lanes, fingerprints: Self.keyed, history: [:], entries: entries)
    #expect(served[0]?.reason == "a pass with these inputs is in the cache")
    #expect(served[0]?.restoredFiles == 1 && served[0]?.restoredLog == "tokens.log")
    #expect(served[1]?.reason == "a pass with these inputs is in the remote cache")
    let own = LastVerdict(outcome: .pass, fingerprint: "f-app")
    #expect(rounds.served(plan.manifest.lanes, fingerprints: Self.keyed, history: ["app": own], entries: entries)[1]?.reason
            == "inputs unchanged since it last passed")
  }

  /// `--no-cache`: nothing is served, whatever the entries hold.
  @Test func noCacheServesNothing() throws {
    var options = VerifyOptions()
    options.noCache = true
    let plan = try Self.plan(options)
    var rounds = CacheRounds(options: plan.options)
    rounds.decide(plan, fingerprints: Self.keyed, history: [:], entries: [0: (Self.entry("tokens"), .local)])
    #expect(rounds.decisions == [0: .runs("--no-cache"), 1: .runs("--no-cache")])
  }

  /// The run step's one pure piece: a lane keyed again as it starts takes its
  /// new input files and its needs' fingerprints as they are now.
  @Test func aLaneKeyedAgainTakesItsNewFilesAndNeeds() throws {
    let manifest = try Self.plan().manifest
    var parts = FingerprintParts(command: "make", dir: "", env: "", duet: nil)
    parts.files = [FingerprintParts.File(path: "src/a", sha256: "1")]
    var keys = VerifyPipeline.Keys(fingerprints: InputFingerprint.Result(fingerprints: [0: "f-tokens", 1: parts.fingerprint],
                                                                          parts: [1: parts], cacheable: [0, 1]))
    keys.retake(1, files: [FingerprintParts.File(path: "src/a", sha256: "2")], manifest: manifest)
    let taken = try #require(keys.fingerprints.parts[1])
    #expect(taken.files == [FingerprintParts.File(path: "src/a", sha256: "2")])
    #expect(taken.needs == ["tokens": "f-tokens"])
    #expect(keys.fingerprints.fingerprints[1] == taken.fingerprint && taken.fingerprint != parts.fingerprint)
    #expect(keys.actionKeys[1] == LaneCache.actionKey(fingerprint: taken.fingerprint, outputs: []))
    keys.retake(0, files: [], manifest: manifest)
    #expect(keys.fingerprints.fingerprints[0] == "f-tokens", "a lane without parts keeps its key")
  }

  /// The run step: under `--failed-tests`, a pass of the failed cases alone says so.
  @Test func aPassOfFailedTestsAloneSaysSo() {
    var options = VerifyOptions()
    options.failedTests = ["app": FailedTestsOnly(tests: ["A.b"], total: 3)]
    let result = RunVerdict(lanes: [Self.record(0, "tokens", .pass), Self.record(1, "app", .pass)], interrupted: false, duration: 1)
    let noted = VerifyPipeline.notingFailedTestsOnly(result, options: options)
    #expect(noted.lanes[0].attempts[0].note == nil)
    #expect(noted.lanes[1].attempts[0].note == FailedTestsOnly(tests: ["A.b"], total: 3).words)
  }

  /// The verdict step: a tracked file the run changed fails it (`--strict`);
  /// without the two snapshots, the lanes alone decide.
  @Test func theVerdictReadsTheLanesAndTheTree() {
    let result = RunVerdict(lanes: [Self.record(0, "tokens", .pass)], interrupted: false, duration: 1)
    let clean = TrackedChanges(entries: ["README.md": " M abc"])
    let edited = TrackedChanges(entries: ["README.md": " M def"])
    let passed = VerifyPipeline.verdict(result, trackedBefore: clean, after: clean)
    #expect(passed.outcome == .pass && passed.exitCode == 0)
    let failed = VerifyPipeline.verdict(result, trackedBefore: clean, after: edited)
    #expect(failed.outcome == .fail && failed.exitCode == 1 && failed.changedTrackedFiles == ["README.md"])
    #expect(VerifyPipeline.verdict(result, trackedBefore: clean, after: nil).outcome == .pass)
  }

  /// A decided verify and its run, by hand: `tokens` served from a strict
  /// entry, `app` ran and passed with an input that moved.
  static func decidedAndRan(options: VerifyOptions = VerifyOptions()) throws -> (VerifyPipeline.Decided, VerifyPipeline.Ran) {
    let keys = VerifyPipeline.Keys(fingerprints: keyed, actionKeys: [0: "k-tokens", 1: "k-app"])
    let decided = VerifyPipeline.Decided(plan: try plan(options), keys: keys, decisions: [0: .cached, 1: .runs("no passing run recorded")],
                                         warnings: [], readings: VerifyPipeline.Readings(), entries: [0: (entry("tokens", strict: true), .local)])
    let ran = VerifyPipeline.Ran(verdict: RunVerdict(lanes: [record(0, "tokens", .cached, attempts: 0), record(1, "app", .pass)],
                                                   interrupted: false, duration: 1), keys: keys, moved: [1: ["src/a"]])
    return (decided, ran)
  }

  /// The record step's pure part: a served lane is judged by the entry that
  /// served it, a lane that ran by this run; a pass whose inputs moved keeps
  /// no cache entry, one whose inputs stayed does.
  @Test func whatTheRecordKeeps() throws {
    let (decided, first) = try Self.decidedAndRan()
    var ran = first
    let outcome = ran.verdict
    let judged = VerifyPipeline.judged(outcome, decided: decided, ran: ran)
    #expect(judged[0] == PassConditions(strict: true, partial: false))
    #expect(judged[1] == PassConditions(strict: false, partial: false, moved: ["src/a"]))
    #expect(VerifyPipeline.passes(outcome, judged: judged, actionKeys: ran.keys.actionKeys, options: decided.plan.options).isEmpty)
    ran.moved = [:]
    let unmoved = VerifyPipeline.judged(outcome, decided: decided, ran: ran)
    let passes = VerifyPipeline.passes(outcome, judged: unmoved, actionKeys: ran.keys.actionKeys, options: decided.plan.options)
    #expect(passes.keys.sorted() == [1] && passes[1]?.key == "k-app" && passes[1]?.logPath == ".duet/logs/r/app.log")
    var parts = FingerprintParts(command: "make", dir: "", env: "", duet: nil)
    parts.files = [FingerprintParts.File(path: "src/a", sha256: "1")]
    let printed = InputFingerprint.Result(fingerprints: [:], parts: [0: parts, 1: parts], cacheable: [0, 1])
    #expect(VerifyPipeline.keptParts(outcome, fingerprints: printed).keys.sorted() == ["app"], "a served lane keeps no parts")
    #expect(VerifyPipeline.keptParts(ran.verdict.changing(["x"]), fingerprints: printed).isEmpty)
  }

  /// What `--timings` is laid out from (the timeline itself is DuetPages'):
  /// the rows the run records, under this run's id, and each lane's needs.
  @Test func theTimelinesRows() throws {
    let (decided, ran) = try Self.decidedAndRan()
    let pipeline = VerifyPipeline(historyPath: nil, duetVersion: "t", commandLine: "duet verify")
    let rows = pipeline.timelineRows(ran.verdict, decided: decided, ran: ran)
    #expect(rows.run.id == pipeline.runUUID)
    #expect(rows.run.outcome == .pass)
    #expect(rows.steps.map(\.lane) == ["tokens", "app"])
    #expect(rows.steps.map(\.laneOutcome) == [.cached, .pass])
    #expect(rows.steps.map(\.fingerprint) == ["f-tokens", "f-app"])
    #expect(rows.needs == ["tokens": [], "app": ["tokens"]])
  }

  /// The record step's pure part: under `--failed-tests`, a pass of some cases keeps no entry.
  @Test func aPassOfSomeTestsKeepsNoEntry() throws {
    var options = VerifyOptions()
    options.failedTests = ["app": FailedTestsOnly(tests: ["A.b"], total: 3)]
    let (decided, first) = try Self.decidedAndRan(options: options)
    var ran = first
    ran.moved = [:]
    let outcome = ran.verdict
    let judged = VerifyPipeline.judged(outcome, decided: decided, ran: ran)
    #expect(judged[1]?.failedTestsOnly == true)
    #expect(VerifyPipeline.passes(outcome, judged: judged, actionKeys: ran.keys.actionKeys, options: decided.plan.options).isEmpty)
  }

  /// What the response keeps once the lanes ran: the keys as the run left
  /// them (`--json` prints those fingerprints; a lane whose need ran was keyed
  /// again), and the warnings of the decision, the run and the record in turn.
  @Test func theResponseKeepsTheKeysTheRunLeft() throws {
    var (decided, ran) = try Self.decidedAndRan()
    decided.warnings = ["history: a"]
    ran.warnings = ["quarantine: b"]
    ran.keys.fingerprints.fingerprints[1] = "f-app-again"
    let after = decided.after(ran, recorded: VerifyPipeline.Recorded(warnings: ["c"]))
    #expect(after.fingerprints.fingerprints == [0: "f-tokens", 1: "f-app-again"])
    #expect(after.warnings == ["history: a", "quarantine: b", "c"])
    #expect(after.decisions == decided.decisions)
  }
}
