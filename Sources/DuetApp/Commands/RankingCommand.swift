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

  /// `--last N`, `--tests` and `--lane NAME` as a request; `--lane` without `--tests` is a usage error.
  static func ranking(_ arguments: ParsedArguments<Self>) throws -> RankingRequest {
    let last = try arguments[last] ?? 500
    var request = RankingRequest(root: try treeRoot(arguments), environment: arguments.invocation.environment)
    request.last = last
    request.tests = try arguments[tests]
    request.lane = try arguments[lane]
    if request.lane != nil && !request.tests {
      throw UsageError(message: "--lane chooses whose tests --tests \(testsVerb); use it with --tests", command: spec.name)
    }
    return request
  }
}
