import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// The CI options of `duet verify`, read from the command line: `--junit FILE`
/// and `--shard I/N`. What they do happens in DuetApp's `verify`.
enum VerifyCI {
  /// `--junit FILE` as an absolute path, nil without it.
  static func junitPath(_ arguments: ParsedArguments) throws -> String? {
    guard let junit = arguments.value("--junit") else { return nil }
    guard !junit.isEmpty else { throw UsageError(message: "--junit needs a file path", command: "verify") }
    return URL(fileURLWithPath: junit, relativeTo: arguments.invocation.workingDirectory).path
  }

  /// `--timings` (the root's `.duet/timings.html`) or `--timings=FILE` (from the working folder), as an absolute path.
  static func timingsPath(_ arguments: ParsedArguments, root: URL) throws -> String? {
    guard arguments.flag("--timings") else { return nil }
    guard let path = arguments.value("--timings") else { return VerifyRequest.defaultTimingsPath(root: root) }
    guard !path.isEmpty else { throw UsageError(message: "--timings=FILE needs a file path", command: "verify") }
    return URL(fileURLWithPath: path, relativeTo: arguments.invocation.workingDirectory).path
  }

  /// `--shard I/N` read from the command line; nil without it. A usage error for a bad spec.
  static func shardSpec(_ arguments: ParsedArguments) throws -> Sharding.Spec? {
    guard let text = arguments.value("--shard") else { return nil }
    guard let spec = Sharding.Spec.parse(text) else {
      throw UsageError(message: "--shard needs I/N with 1 <= I <= N, such as 2/3, got '\(text)'", command: "verify")
    }
    return spec
  }
}
