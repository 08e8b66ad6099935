import Foundation
import DuetCommandLine
import DuetSupport

/// `duet flaky` and `duet stats`: a ranking of the history window's lanes, or
/// with `--tests` of the test cases of their reports, one lane's with `--lane`.
protocol RankingCommand: HistoryWindowCommand, TreeCommand {
  /// `--tests`, with the command's own help.
  static var tests: Option<Self, Bool> { get }
  /// What the ranking does with tests, for the usage error of a `--lane` alone: `ranks`, `lists`.
  static var testsVerb: String { get }
}

extension RankingCommand {
  static var readsRecordedLanes: Bool { true }
  static var lane: Option<Self, String?> {
    .text(OptionSpec(name: "--lane", value: "NAME", help: "with --tests: only this lane's tests"))
  }

  /// `--last N`, `--tests` and `--lane NAME`; `--lane` without `--tests` is a usage error.
  static func ranking(_ line: ParsedArguments<Self>) throws(UsageError) -> RankingOptions {
    let options = RankingOptions(root: try line[root], last: try line[last] ?? 500, tests: try line[tests], lane: try line[lane])
    if options.lane != nil && !options.tests {
      throw UsageError(message: "--lane chooses whose tests --tests \(testsVerb); use it with --tests", command: spec.name)
    }
    return options
  }
}

/// The window and the ranking `duet flaky` and `duet stats` are asked for.
struct RankingOptions {
  var root: String?
  var last: Int
  var tests: Bool
  var lane: String?

  /// The request in the tree `--root` names.
  func request(_ call: CommandCall) throws -> RankingRequest {
    var request = RankingRequest(root: try call.treeRoot(root), environment: call.environment)
    request.last = last
    request.tests = tests
    request.lane = lane
    return request
  }
}
