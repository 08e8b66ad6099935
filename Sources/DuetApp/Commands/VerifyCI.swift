import Foundation
import DuetCommandLine
import DuetSupport

/// The CI options of `duet verify`, read from the command line in the parse
/// step (`VerifyCommand.options`): `--junit FILE`, `--timings` and
/// `--upstream JOB=STORE` (whose values the keys checked). What they do happens in DuetApp's `verify`.
enum VerifyCI {
  /// `--junit FILE` as an absolute path, nil without it.
  static func junitPath(_ arguments: ParsedArguments<VerifyCommand>) throws -> String? {
    try filePath(arguments[VerifyCommand.junit], option: "--junit", arguments)
  }

  /// `--timings` as given (`.bare`: the tree's `.duet/timings.html`), or
  /// `--timings=FILE` with FILE as an absolute path (from the working folder).
  static func timings(_ arguments: ParsedArguments<VerifyCommand>) throws -> InlineFlag? {
    guard let timings = try arguments[VerifyCommand.timings] else { return nil }
    guard case .value(let path) = timings else { return .bare }
    return try filePath(path, option: "--timings=FILE", arguments).map(InlineFlag.value)
  }

  /// Where the timings page goes for `--timings` as `timings` reads it: an absolute path, or nil for none.
  static func timingsPath(_ timings: InlineFlag?, root: URL) -> String? {
    switch timings {
    case nil: return nil
    case .bare?: return VerifyRequest.defaultTimingsPath(root: root)
    case .value(let path)?: return path
    }
  }

  /// Each `--upstream JOB=STORE`, the store as an absolute path (from the working folder).
  static func upstream(_ arguments: ParsedArguments<VerifyCommand>) throws -> [UpstreamStore] {
    // The parse refused any value that is not JOB=STORE (`VerifyCommand.upstream`).
    try arguments[VerifyCommand.upstream].compactMap(upstreamParts).map { job, path in
      UpstreamStore(job: job, path: URL(fileURLWithPath: path, relativeTo: arguments.invocation.workingDirectory).path)
    }
  }

  /// `JOB=STORE` as its two parts, neither empty; nil for any other text.
  static func upstreamParts(_ text: String) -> (job: String, store: String)? {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else { return nil }
    return (String(text[..<equals]), String(text[text.index(after: equals)...]))
  }
}
