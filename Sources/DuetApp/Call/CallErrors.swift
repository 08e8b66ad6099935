import Foundation

/// Exit codes a CI job can trust.
public enum ExitCode {
  public static let pass: Int32 = 0
  public static let failed: Int32 = 1
  public static let usage: Int32 = 2
  public static let interrupted: Int32 = 130
}

/// A request the tree cannot satisfy as asked (a lane it does not know, a
/// missing argument): printed as `duet <command>: error: ...` with a pointer to
/// the command's help, exit 2.
public struct UsageError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public var command: String
  public var description: String { message }
  public init(message: String, command: String) {
    self.message = message
    self.command = command
  }
}

/// A command that ran but must end with a message (printed as it is, on
/// stderr) and an exit code of its own.
public struct CommandFailure: Error, Sendable {
  public var message: String
  public var code: Int32
  public init(message: String, code: Int32) {
    self.message = message
    self.code = code
  }
}
