import Foundation
import Testing
@testable import DuetFuzzSupport
@testable import DuetApp
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

/// `verify(_:observer:)`, the library call the executable's `duet verify` makes:
/// a request in, the verdict, the events and the history row out, no process.
struct VerifyCallTests {
  let tree: TemporaryFolder

  init() throws {
    tree = try TemporaryFolder()
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: build
          sh: echo built
        - name: test
          sh: 'echo "error: boom" && exit 3'
          needs: [build]
        - name: lint
          sh: "true"
          needs: [test]
      """)
  }

  func request(_ change: (inout VerifyRequest) -> Void = { _ in }) -> VerifyRequest {
    var options = VerifyOptions()
    options.jobs = 2
    var request = VerifyRequest(root: tree.url, options: options, duetVersion: "test", environment: ProcessInfo.processInfo.environment)
    change(&request)
    return request
  }

  /// A failed lane fails the run: its dependents are skipped, the exit code is
  /// 1, the observer hears each lane end, and the history row says `fail`.
  @Test func aFailedLaneFailsTheRunAndTheRecord() throws {
    let events = Locked<[String]>([])
    let observer = VerifyObserver(started: { total in events.withLock { $0.append("started \(total)") } },
                                  event: { event in
                                    if case .finished(let record, _, _) = event {
                                      events.withLock { $0.append("\(record.name) \(record.outcome.rawValue)") }
                                    }
                                  })
    guard case .ran(let outcome, let session?) = try verify(request(), observer: observer) else {
      Issue.record("expected a run")
      return
    }
    #expect(outcome.exitCode == 1)
    #expect(outcome.lastLine == "duet verify: FAIL (1 failed: test; 1 skipped)")
    #expect(events.withLock { $0 } == ["started 3", "build pass", "test fail", "lint skipped"])
    let store = try HistoryStore(path: try #require(HistoryStore.defaultPath(root: tree.url, environment: [:])))
    let row = try #require(try store.recentRuns(limit: 1).first)
    #expect(row.outcome == .fail)
    #expect(row.logID == session.plan.runID)
  }

  /// `--dry-run` decides and records nothing; `--failed` then has no run to read.
  @Test func dryRunRecordsNothing() throws {
    guard case .dryRun(let session) = try verify(request { $0.dryRun = true }) else {
      Issue.record("expected a dry run")
      return
    }
    #expect(session.plan.selected.count == 3)
    guard case .nothingToRun(let sentence) = try verify(request { $0.failedOnly = true }) else {
      Issue.record("expected nothing to run")
      return
    }
    #expect(sentence == "duet verify --failed: no run recorded yet; nothing to run")
  }

  /// An option the tree cannot satisfy is the one usage error, as from the
  /// parser (issue 42), not a crash or a run.
  @Test func aLaneTheManifestLacksIsAUsageError() throws {
    let error = #expect(throws: UsageError.self) {
      _ = try verify(request { $0.options.lanes = ["nope"] })
    }
    #expect(error?.command == "verify")
    #expect(error?.message.hasPrefix("--lane: no lane 'nope' in lanes/manifest.yaml") == true, "\(String(describing: error))")
  }

  /// A shard with no lanes ran nothing and passes, with no session to report.
  @Test func anEmptyShardPasses() throws {
    let notices = Locked<[String]>([])
    let spec = try #require(Sharding.Spec.parse("9/9"))
    let response = try verify(request { $0.shard = spec }, observer: VerifyObserver(notice: { line in notices.withLock { $0.append(line) } }))
    guard case .ran(let outcome, nil) = response else {
      Issue.record("expected an empty shard")
      return
    }
    #expect(outcome.exitCode == 0)
    #expect(notices.withLock { $0 } == ["duet verify --shard 9/9: no lane falls in this shard (3 lane(s) over 9 shards)"])
  }

  /// Lanes with inputs need no git for their fingerprints, so the commit the
  /// history row names is asked while they run; the row still names HEAD.
  @Test func theRecordNamesTheCommitAskedDuringTheRun() throws {
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: build
          sh: "true"
          inputs: [lanes/manifest.yaml]
      """)
    func git(_ arguments: String) -> String? { ProcessOutput.git(arguments.split(separator: " ").map(String.init), in: tree.url, environment: testEnvironment) }
    _ = git("init -q")
    _ = git("-c user.email=t@t -c user.name=t -c commit.gpgsign=false commit -q --allow-empty -m start")
    let head = try #require(git("rev-parse HEAD"))
    guard case .ran(let outcome, _) = try verify(request()) else {
      Issue.record("expected a run")
      return
    }
    #expect(outcome.exitCode == 0)
    let store = try HistoryStore(path: try #require(HistoryStore.defaultPath(root: tree.url, environment: [:])))
    #expect(try store.recentRuns(limit: 1).first?.gitCommit == head)
  }

  /// An observer that blocks (a terminal nobody reads) holds only itself: the
  /// lanes still time out and the run is recorded while it waits.
  @Test func aBlockedObserverDoesNotHoldTheRun() throws {
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: quick
          sh: "true"
        - name: slow
          sh: sleep 30
          timeout: 1s
      """)
    let store = try #require(HistoryStore.defaultPath(root: tree.url, environment: [:]))
    let recordedWhileBlocked = Locked<Bool?>(nil)
    let observer = VerifyObserver(event: { _ in
      guard recordedWhileBlocked.withLock({ $0 }) == nil else { return }
      let recorded = eventually(within: 15) {
        FileManager.default.fileExists(atPath: store) && ((try? HistoryStore(path: store).recentRuns(limit: 1).first) ?? nil) != nil
      }
      recordedWhileBlocked.withLock { $0 = recorded }
    })
    guard case .ran(let outcome, _) = try verify(request(), observer: observer) else {
      Issue.record("expected a run")
      return
    }
    #expect(recordedWhileBlocked.withLock { $0 } == true)
    #expect(outcome.lastLine == "duet verify: FAIL (1 timed out: slow)")
  }
}
