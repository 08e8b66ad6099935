import DuetSupport
import Foundation

/// What `duet flaky` and `duet stats` rank: the tree's history over the last
/// `last` runs, its lanes or (`--tests`) the test cases of its lanes' reports,
/// only one lane's with `--lane`.
struct RankingRequest: Sendable {
  var root: URL
  /// The invocation's environment: `DUET_HISTORY` says where the store is.
  var environment: [String: String]
  /// `--last N`: the window, in runs.
  var last = 500
  /// `--tests`: the test cases of the lanes' reports, not the lanes.
  var tests = false
  /// `--lane NAME` (with `--tests`): only this lane's tests.
  var lane: String?

  init(root: URL, environment: [String: String]) {
    self.root = root
    self.environment = environment
  }

  /// The store to rank from (`.none` without one). `--lane` was checked with
  /// the command line (`KnownLanes`).
  func open(command: String) throws -> HistoryAccess.Opened {
    try HistoryAccess.openForReading(root: root, environment: environment, command: command)
  }
}

/// `duet stats` ranks no more than that.
typealias StatsRequest = RankingRequest
