import Foundation

/// Exit codes a CI job can trust.
package enum ExitCode {
  package static let pass: Int32 = 0
  package static let failed: Int32 = 1
  package static let usage: Int32 = 2
  /// The machine ran out (no descriptor, thread, process or memory): duet's error, not the run's.
  package static let machine: Int32 = 3
  static let interrupted: Int32 = 130
}

/// A command that ran but must end with a message (printed as it is, on
/// stderr) and an exit code of its own.
package struct CommandFailure: Error, Sendable {
  package var message: String
  package var code: Int32
  package init(message: String, code: Int32) {
    self.message = message
    self.code = code
  }
}
