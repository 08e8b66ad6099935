import Foundation
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

/// Runs and manifests built in memory for the CI report tests.
enum CIFixtures {
  static func attempt(_ n: Int, _ outcome: AttemptOutcome, exit: Int32? = nil, duration: Double = 1.5, log: String? = nil, lines: [String] = []) -> LaneAttempt {
    var tail = LogTail()
    for line in lines { tail.append(line + "\n") }
    tail.close()
    return LaneAttempt(attempt: n, outcome: outcome, exitCode: exit, started: 0, duration: duration, logPath: log, tail: tail)
  }

  static func record(_ index: Int, _ name: String, _ outcome: LaneOutcome, reason: String? = nil, attempts: [LaneAttempt]) -> LaneVerdict {
    LaneVerdict(index: index, name: name, outcome: outcome, reason: reason, attempts: attempts)
  }

  /// One lane of every outcome that matters to CI reports.
  static var mixedRun: RunVerdict {
    RunVerdict(lanes: [
      record(0, "tokens", .pass, attempts: [attempt(1, .pass, exit: 0, duration: 0.25, log: ".duet/logs/r/tokens.log")]),
      record(1, "kotlin", .fail, attempts: [attempt(1, .fail, exit: 4, log: ".duet/logs/r/kotlin.log", lines: ["compiling", "Main.kt:3: error: unresolved", "1 test FAILED"])]),
      record(2, "theme", .skipped, reason: "needs kotlin", attempts: []),
      record(3, "swift", .flaky, attempts: [attempt(1, .fail, exit: 1), attempt(2, .pass, exit: 0, log: ".duet/logs/r/swift.attempt-2.log")]),
      record(4, "mocks", .cached, reason: "inputs unchanged since it last passed", attempts: []),
      record(5, "slow", .timeout, attempts: [attempt(1, .timeout, duration: 600, log: ".duet/logs/r/slow.log", lines: ["waiting"])]),
    ], interrupted: false, duration: 12.5)
  }

  static func lane(_ name: String, needs: [String] = []) -> Lane {
    var lane = Lane(name: name, step: .shell("true"), location: SourceLocation(file: "m", line: 1, column: 1))
    lane.needs = needs
    return lane
  }

  static func manifest(_ lanes: [Lane]) -> Manifest { Manifest(path: "lanes/manifest.yaml", lanes: lanes) }
}

extension RunVerdict {
  /// The same verdict with `files` as the tracked files the run changed (`--strict`).
  func changing(_ files: [String]) -> RunVerdict {
    var verdict = self
    verdict.changedTrackedFiles = files
    return verdict
  }
}
