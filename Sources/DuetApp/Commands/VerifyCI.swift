import Foundation
import DuetCommandLine
import DuetSupport

/// The CI options of `duet verify`, read from the command line: `--junit FILE`
/// and `--shard I/N`. What they do happens in DuetApp's `verify`.
enum VerifyCI {
  /// `--junit FILE` as an absolute path, nil without it.
  static func junitPath(_ arguments: ParsedArguments<VerifyCommand>) throws -> String? {
    try filePath(arguments[VerifyCommand.junit], option: "--junit", arguments)
  }

  /// `--timings` (the root's `.duet/timings.html`) or `--timings=FILE` (from the working folder), as an absolute path.
  static func timingsPath(_ arguments: ParsedArguments<VerifyCommand>, root: URL) throws -> String? {
    guard let timings = try arguments[VerifyCommand.timings] else { return nil }
    guard case .value(let path) = timings else { return VerifyRequest.defaultTimingsPath(root: root) }
    return try filePath(path, option: "--timings=FILE", arguments)
  }

  /// `--shard I/N`, parsed once here; nil without it. A usage error for a bad spec.
  static func shard(_ arguments: ParsedArguments<VerifyCommand>) throws -> ShardSpec? {
    guard let text = try arguments[VerifyCommand.shard] else { return nil }
    guard let spec = ShardSpec.parse(text) else {
      throw UsageError(message: "--shard needs I/N with 1 <= I <= N, such as 2/3, got '\(text)'", command: "verify")
    }
    return spec
  }

  /// Each `--upstream JOB=STORE`, the store as an absolute path (from the working folder).
  static func upstream(_ arguments: ParsedArguments<VerifyCommand>) throws -> [UpstreamStore] {
    try arguments[VerifyCommand.upstream].map { text in
      guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
        throw UsageError(message: "--upstream needs JOB=STORE, such as linux-1=.duet/upstream/history-linux-1.sqlite, got '\(text)'", command: "verify")
      }
      let path = String(text[text.index(after: equals)...])
      return UpstreamStore(job: String(text[..<equals]), path: URL(fileURLWithPath: path, relativeTo: arguments.invocation.workingDirectory).path)
    }
  }
}
