import DuetModel
import DuetSupport
import DuetHistory

/// A run's verdict, the one of a verify: every lane's verdict in manifest
/// order, whether Ctrl-C stopped the run, the tracked files it changed under
/// `--strict`, and the reports that could not be written. The loop makes it
/// from its lanes; the pipeline adds the tracked files (`VerifyPipeline.verdict`)
/// and the reports their failures. The exit code, the last line, `--json`,
/// JUnit, the step summary and the history row are all read from here;
/// nothing else decides pass or fail.
package struct RunVerdict: Sendable {
  /// A verdict per selected lane, in manifest order.
  package var lanes: [LaneVerdict]
  var interrupted: Bool
  package var duration: Double
  /// Tracked files whose status or content the run changed (`--strict`), sorted.
  package var changedTrackedFiles: [String]
  /// Reports asked for that could not be written (`--junit: cannot write …`).
  package var reportErrors: [String]
  /// Reports that could not be written because the machine ran out (no
  /// descriptor, thread or memory: `MachineShortage`): duet's error, not the run's failure.
  package var machineErrors: [String] = []
  /// Where `--timings` wrote the run's page, when it did.
  package var timingsPath: String?

  init(lanes: [LaneVerdict], interrupted: Bool, duration: Double, changedTrackedFiles: [String] = [], reportErrors: [String] = []) {
    self.lanes = lanes
    self.interrupted = interrupted
    self.duration = duration
    self.changedTrackedFiles = changedTrackedFiles
    self.reportErrors = reportErrors
  }

  /// A run that started nothing (an empty shard, a signal before the loop).
  package static let empty = RunVerdict(lanes: [], interrupted: false, duration: 0)

  /// Failed and timed-out lanes, in manifest order: the lanes the FAIL line names.
  package var failed: [LaneVerdict] { lanes.filter { $0.outcome.failsRun } }
  /// Lanes duet could not start (no descriptor, process or memory): not failures.
  package var couldNotStart: [LaneVerdict] { lanes.filter { $0.outcome == .error } }
  /// Lanes a CI job could not run because a need did not pass, or was not run,
  /// in an earlier job (`--upstream`): the job is not green (issue 52).
  var blockedUpstream: [LaneVerdict] { lanes.filter(\.blockedUpstream) }
  /// The lanes whose ends a report shows in full: failures, then those duet could not start.
  package var unfinished: [LaneVerdict] { lanes.filter { $0.outcome.failsRun || $0.outcome == .error } }
  package var flaky: [LaneVerdict] { lanes.filter { $0.outcome == .flaky } }

  /// The run's one word.
  package var outcome: RunOutcome {
    if interrupted { return .interrupted }
    if !failed.isEmpty || !blockedUpstream.isEmpty || !changedTrackedFiles.isEmpty || !reportErrors.isEmpty { return .fail }
    if !couldNotStart.isEmpty || !machineErrors.isEmpty { return .error }
    return .pass
  }

  /// 0 pass, 1 fail, 3 a lane duet could not start (and none failed), 130 interrupted.
  package var exitCode: Int32 {
    switch outcome {
    case .pass: return 0
    case .fail: return 1
    case .error: return 3
    case .interrupted: return 130
    }
  }

  /// How many lanes ended each way.
  package var counts: [LaneOutcome: Int] {
    var counts: [LaneOutcome: Int] = [:]
    for lane in lanes { counts[lane.outcome, default: 0] += 1 }
    return counts
  }

  /// The last line of the run: `duet verify: PASS (12 passed, 30 cached, 3 skipped:
  /// needs gradle)` or `duet verify: FAIL (2 failed: kotlin, mocks; 1 timed out:
  /// shells; 4 skipped)`. One line whatever the tree's names, reasons and
  /// files hold: they are escaped as they go in (`TerminalLine`).
  package var lastLine: TerminalLine {
    let counts = self.counts
    switch outcome {
    case .interrupted:
      let finished = lanes.filter { $0.outcome != .cancelled && $0.outcome != .interrupted }.count
      return "duet verify: INTERRUPTED (\(finished) of \(lanes.count) lanes finished)"
    case .pass:
      var parts: [TerminalLine] = []
      for (laneOutcome, word) in [(LaneOutcome.pass, "passed"), (.flaky, "flaky"), (.cached, "cached"), (.unaffected, "unaffected")] {
        if let count = counts[laneOutcome] { parts.append("\(count) \(word)") }
      }
      parts += skipParts(withCauses: true)
      return "duet verify: PASS (" + (parts.isEmpty ? "no lanes ran" : parts.joined(separator: ", ")) + ")"
    case .fail:
      var parts: [TerminalLine] = []
      let failed = lanes.filter { $0.outcome == .fail }
      let timedOut = lanes.filter { $0.outcome == .timeout }
      if !failed.isEmpty { parts.append("\(failed.count) failed: \(RunVerdict.names(failed))") }
      if !timedOut.isEmpty { parts.append("\(timedOut.count) timed out: \(RunVerdict.names(timedOut))") }
      parts += couldNotStartParts()
      let blocked = blockedUpstream
      if !blocked.isEmpty {
        parts.append("\(blocked.count) not run for an earlier job: \(RunVerdict.names(blocked)) (\(blocked[0].reason ?? "a need did not pass"))")
      }
      parts += skipParts(withCauses: false)
      if let count = counts[.cancelled] { parts.append("\(count) cancelled") }
      if !changedTrackedFiles.isEmpty { parts.append("\(TrackedChanges.summary(changedTrackedFiles))") }
      parts += (reportErrors + machineErrors).map { "\($0)" }
      return "duet verify: FAIL (" + parts.joined(separator: "; ") + ")"
    case .error:
      var parts = couldNotStartParts()
      for (laneOutcome, word) in [(LaneOutcome.pass, "passed"), (.flaky, "flaky"), (.cached, "cached")] {
        if let count = counts[laneOutcome] { parts.append("\(count) \(word)") }
      }
      parts += skipParts(withCauses: false)
      parts += machineErrors.map { "\($0)" }
      return "duet verify: ERROR (" + parts.joined(separator: "; ") + ")"
    }
  }

  /// `2 could not start: a, b (cannot make a pipe: Too many open files)`: the
  /// machine's failures, with the first reason.
  private func couldNotStartParts() -> [TerminalLine] {
    let records = couldNotStart
    guard let first = records.first else { return [] }
    return ["\(records.count) could not start: \(RunVerdict.names(records)) (\(first.reason ?? "no resources"))"]
  }

  /// `2 skipped by request` (`--skip`, `DUET_SKIP`), then the other skipped
  /// lanes (`1 skipped: needs gradle` on a pass, `1 skipped` on a fail).
  private func skipParts(withCauses: Bool) -> [TerminalLine] {
    let skipped = lanes.filter { $0.outcome == .skipped }
    let requested = skipped.filter(\.isSkippedByRequest).count
    // A lane an earlier job's failure kept from running is named on its own (`not run for an earlier job`).
    let others = skipped.filter { !$0.isSkippedByRequest && !$0.blockedUpstream }
    var parts: [TerminalLine] = requested == 0 ? [] : ["\(requested) skipped by request"]
    if !others.isEmpty {
      let why = withCauses ? RunVerdict.skipCauses(others) : ""
      parts.append(why.isEmpty ? "\(others.count) skipped" : "\(others.count) skipped: \(why)")
    }
    return parts
  }

  /// At most ten names, in manifest order, then how many more.
  static func names(_ records: [LaneVerdict]) -> String {
    let shown = records.prefix(10).map(\.name).joined(separator: ", ")
    return records.count > 10 ? shown + " and \(records.count - 10) more" : shown
  }

  /// Why lanes were skipped on a passing run: the programs they need, once each
  /// (`needs gradle, kotlinc`), then any other reason once.
  static func skipCauses(_ records: [LaneVerdict]) -> String {
    var programs: [String] = []
    var others: [String] = []
    for record in records {
      if !record.missingPrograms.isEmpty {
        for program in record.missingPrograms where !programs.contains(program) { programs.append(program) }
      } else if let reason = record.reason, !others.contains(reason) {
        others.append(reason)
      }
    }
    return ((programs.isEmpty ? [] : ["needs " + programs.joined(separator: ", ")]) + others).joined(separator: "; ")
  }
}
