import Foundation

/// Exit codes a CI job can trust.
enum ExitCode {
  static let pass: Int32 = 0
  static let failed: Int32 = 1
  static let usage: Int32 = 2
  /// The machine ran out (no descriptor, thread, process or memory): duet's error, not the run's.
  static let machine: Int32 = 3
  static let interrupted: Int32 = 130
}

/// A command that ran but must end with a message (printed as it is, on
/// stderr) and an exit code of its own.
struct CommandFailure: Error, Sendable {
  var message: String
  var code: Int32
}
