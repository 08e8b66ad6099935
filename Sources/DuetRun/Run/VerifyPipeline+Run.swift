import Foundation
import DuetCache
import DuetModel
import DuetProcess
import DuetSupport
import DuetTestReports
import DuetHistory

/// The run step: the decided plan on a `LaneLoop`, and the verdict made of what it did.
extension VerifyPipeline {
  /// Runs the decided plan on this thread's run loop; returns when every lane
  /// has an outcome. Writes, before the loop, the files the lanes read (their
  /// quarantined and failed tests). Tests hand it a scripted poller and clock.
  /// `beforeWait` runs each time the loop is about to block (see `LaneLoop.run`).
  package func run(_ decided: Decided, poller: any ChildPoller = SystemPoller(), clock: any RunClock = SystemClock(),
                   onEvent: @escaping (RunEvent) -> Void, onLine: @escaping @Sendable (Int, String) -> Void,
                   beforeWait: (() -> Void)? = nil) -> Ran {
    let plan = decided.plan
    var keys = decided.keys
    let before = keys.fingerprints.cacheable.reduce(into: [Int: [FingerprintParts.File]]()) { $0[$1] = keys.fingerprints.parts[$1]?.files }
    let recheck = InputRecheck(root: plan.root, builtins: plan.builtins, before: before)
    let loop = Self.loop(plan, quarantine: decided.readings.quarantine, recheck: recheck, poller: poller, clock: clock, cache: cache)
    var gitCommit = decided.gitCommit
    if decided.commitWanted {
      loop.alongside(ProcessOutput.gitSpec(["rev-parse", "HEAD"], in: plan.root, environment: plan.environment)) { output in
        gitCommit = output.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
      }
    }
    let interrupter = loop.interrupter
    interruption.listen { interrupter.interrupt() }
    let quarantined = Self.writeTests(plan, tests: Self.quarantinedTests(plan.manifest.lanes, quarantine: decided.readings.quarantine),
                                      everyLaneWithReports: true, path: plan.quarantinedTestsPath, what: "quarantine")
    let failedTests = Self.writeTests(plan, tests: plan.options.failedTests.mapValues(\.tests), everyLaneWithReports: false,
                                      path: plan.failedTestsPath, what: "--failed-tests")
    let verdict = loop.run(makeRequest: { index, attempt in
                            plan.request(index: index, attempt: attempt, quarantinedTests: quarantined.paths[index],
                                         failedTests: failedTests.paths[index]) { onLine(index, $0) }
                          },
                          startWork: { index, attempt in
                            guard attempt == 1 else { return nil }
                            return Self.keyAgain(index, plan: plan, keys: keys, recheck: recheck) { keys.retake(index, files: $0, manifest: plan.manifest) }
                          },
                          onEvent: onEvent, beforeWait: beforeWait)
    plan.sandboxScratch?.removeAll()
    return Ran(verdict: Self.notingFailedTestsOnly(verdict, options: plan.options), keys: keys, moved: loop.moved, gitCommit: gitCommit,
               warnings: quarantined.warnings + failedTests.warnings)
  }

  /// The loop for a plan: its outputs stored in the cache (or only checked),
  /// its reports read within each lane's timeout, its quarantine applied.
  private static func loop(_ plan: VerifyPlan, quarantine: QuarantineRule?, recheck: InputRecheck, poller: any ChildPoller,
                           clock: any RunClock, cache: LaneCache?) -> LaneLoop {
    let root = plan.root
    return LaneLoop(plan: plan.schedule, lanes: plan.manifest.lanes, builtins: plan.builtins, poller: poller, clock: clock,
                    recheck: recheck,
                    outputs: { index, lane in
                      cache?.capture(index, lane: lane, root: root)
                        ?? OutputCheck(missing: OutputFiles.capture(lane.outputs, root: root, store: nil).missing)
                    },
                    reports: ReportReading(snapshot: { TestReportFiles.snapshot($0.reports, root: root) },
                                           read: { lane, since, before in
                                             // Within the lane's timeout (as `VerifyPlan` sets the request's): a slow read never outlasts it.
                                             let deadline = since + (lane.timeout ?? plan.options.defaultTimeout)
                                             return TestReportFiles.read(lane.reports, root: root, since: since, unchanged: before, deadline: deadline)
                                           }),
                    quarantine: quarantine)
  }

  /// Writes, for each selected lane that runs, the file of tests it is handed
  /// (one `classname.name` pattern a line): its quarantined tests, for every
  /// lane with `reports:` (empty when it has none), so a lane can hand them to
  /// its runner as exclusions and its exit status is the verdict again; or,
  /// under `--failed-tests`, the failed cases it runs alone. Each lane's
  /// absolute path; a lane whose file could not be written gets none, and a warning says why.
  static func writeTests(_ plan: VerifyPlan, tests: [String: [String]], everyLaneWithReports: Bool, path: (String) -> String,
                         what: String) -> (paths: [Int: String], warnings: [String]) {
    var written: (paths: [Int: String], warnings: [String]) = ([:], [])
    for index in plan.selected.sorted() where plan.preset[index] == nil {
      let lane = plan.manifest.lanes[index]
      guard everyLaneWithReports ? !lane.reports.isEmpty : tests[lane.name] != nil else { continue }
      let relative = path(lane.name)
      let file = plan.root.appendingPathComponent(relative)
      do {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Through the tree-root guard: no link on the way out of `.duet/logs`.
        _ = try AtomicFile.write(Data((tests[lane.name] ?? []).map { $0 + "\n" }.joined().utf8), to: relative, in: plan.root)
        written.paths[index] = file.path
      } catch {
        written.warnings.append(("\(what): cannot write \(relative) for lane '\(lane.name)': \(Self.systemWords(error))" as TerminalLine).text)
      }
    }
    return written
  }

  /// The system's words for a file error (`Permission denied`), not Foundation's dump of it.
  private static func systemWords(_ error: any Error) -> String {
    // duet's own file errors name the path the warning names already: their reason alone.
    switch error as? FileError {
    case .cannotWrite(_, let reason)?, .refused(_, let reason)?: return reason
    case .cannotRead(_, let code)?: return String(cString: strerror(code))
    case .outsideTree?: return "\(error)"
    case nil: break
    }
    let error = error as NSError
    // On Linux the underlying error may be a Swift `POSIXError`, not an NSError object.
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error, (underlying as NSError).domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32((underlying as NSError).code)))
    }
    return "\(error)"
  }

  /// A lane whose need ran in this run gets its key taken again as it starts:
  /// its inputs may be that need's outputs (an XCFramework the app links),
  /// written after the keys were taken. The walk (hashing what may be a big
  /// framework) runs on a worker; what it found is kept (`keep`) on the loop's
  /// thread as the lane starts, and the recheck compares with it after.
  static func keyAgain(_ index: Int, plan: VerifyPlan, keys: Keys, recheck: InputRecheck,
                       keep: @escaping ([FingerprintParts.File]) -> Void) -> StartWork? {
    let graph = plan.manifest.graph, lane = plan.manifest.lanes[index]
    guard keys.fingerprints.cacheable.contains(index), keys.fingerprints.parts[index] != nil,
          graph.needs[index].contains(where: { plan.preset[$0] == nil }) else { return nil }
    let root = plan.root, builtins = plan.builtins
    return StartWork {
      let files = InputFingerprint.inputFiles(of: lane, root: root, builtins: builtins)
      return {
        guard files.problems.isEmpty, !files.files.isEmpty else { return }
        keep(files.files)
        recheck.before[index] = files.files
      }
    }
  }

  /// `--failed-tests`: a pass of the failed cases alone says so (`pass … failed tests only: 1 of 3`). Pure.
  static func notingFailedTestsOnly(_ verdict: RunVerdict, options: VerifyOptions) -> RunVerdict {
    var verdict = verdict
    for position in verdict.lanes.indices where verdict.lanes[position].outcome == .pass && !verdict.lanes[position].attempts.isEmpty {
      guard let only = options.failedTests[verdict.lanes[position].name] else { continue }
      verdict.lanes[position].attempts[verdict.lanes[position].attempts.count - 1].note = only.words
    }
    return verdict
  }

  /// The verdict step (pure): the loop's verdict with the tracked files that
  /// changed between the snapshots `--strict` took around it.
  package static func verdict(_ ran: RunVerdict, trackedBefore: TrackedChanges?, after: TrackedChanges?) -> RunVerdict {
    guard let trackedBefore, let after else { return ran }
    var verdict = ran
    verdict.changedTrackedFiles = TrackedChanges.changed(before: trackedBefore, after: after)
    return verdict
  }
}

extension VerifyPipeline.Keys {
  /// A lane's key taken again from the input files found as it starts, with
  /// its needs' fingerprints as they are now, so the pass it records is under
  /// the key the next run computes. Pure: the walk is the caller's.
  mutating func retake(_ index: Int, files: [FingerprintParts.File], manifest: Manifest) {
    guard var parts = fingerprints.parts[index] else { return }
    let graph = manifest.graph
    parts.files = files
    for need in graph.needs[index] {
      if let fingerprint = fingerprints.fingerprints[need] { parts.needs[graph.names[need]] = fingerprint }
    }
    fingerprints.parts[index] = parts
    fingerprints.fingerprints[index] = parts.fingerprint
    actionKeys[index] = LaneCache.actionKey(fingerprint: parts.fingerprint, outputs: manifest.lanes[index].outputs)
  }
}

extension VerifyPlan {
  /// The plan of the run as `LaneSchedule` sees it: settled lanes, retries, pools, jobs.
  package var schedule: LaneSchedule {
    LaneSchedule(.init(
      graph: manifest.graph, selected: selected, settled: preset,
      retries: manifest.lanes.map(\.retries), pools: manifest.lanes.map(\.pool), poolDepths: manifest.pools,
      weights: weights, jobs: options.jobs, failFast: options.failFast))
  }
}
