import Foundation

/// Exit codes a CI job can trust.
package enum ExitCode {
  package static let pass: Int32 = 0
  package static let failed: Int32 = 1
  package static let usage: Int32 = 2
  package static let interrupted: Int32 = 130
}

/// A request the tree cannot satisfy as asked (a lane it does not know, a
/// missing argument): printed as `duet <command>: error: ...` with a pointer to
/// the command's help, exit 2.
package struct UsageError: Error, CustomStringConvertible, Sendable {
  package var message: String
  package var command: String
  package var description: String { message }
  package init(message: String, command: String) {
    self.message = message
    self.command = command
  }
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
