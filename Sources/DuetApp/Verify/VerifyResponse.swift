import DuetRun
import Foundation

/// What `verify(_:observer:)` did: ran lanes (or none, for an empty shard),
/// decided a dry run, or found nothing to do for `--failed`.
enum VerifyResponse {
  /// The lanes ran; `decided` holds the plan, fingerprints, cache decisions
  /// and every warning (nil for a shard with no lanes, where nothing was planned).
  case ran(RunVerdict, decided: VerifyPipeline.Decided?)
  /// `--dry-run`: the verify decided, nothing run or recorded.
  case dryRun(VerifyPipeline.Decided)
  /// `--failed` with no run recorded, or none failed: the sentence to print.
  case nothingToRun(String)

  /// The exit code a CI job trusts: 0 pass, 1 a lane failed, 130 interrupted.
  var exitCode: Int32 {
    switch self {
    case .ran(let verdict, _): return verdict.exitCode
    case .dryRun, .nothingToRun: return 0
    }
  }
}

/// Why verify could not start other than a bad option (a `UsageError`): the
/// history `--failed` reads is unreadable (exit 2, with no pointer to help,
/// since the command line is right).
enum VerifyFailure: Error, CustomStringConvertible, Sendable {
  /// `--failed` could not read the history.
  case history(String)

  var description: String {
    switch self {
    case .history(let message): return "--failed: cannot read the history: \(message)"
    }
  }
}
