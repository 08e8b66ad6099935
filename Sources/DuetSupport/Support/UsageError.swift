/// A command line the tree cannot satisfy as asked (an option's bad value, a
/// lane it does not know, a missing argument): printed as `duet <command>: error: ...`
/// with a pointer to the command's help, exit 2. The one error for a bad
/// option, from the parser to the plan, so no layer translates another's.
/// Its message reaches the user only as a terminal line (`duet <command>:
/// error: \(message)`), which escapes it whole as it is made, so a message
/// quotes what the user typed as it is, without `ControlText.shown`.
package struct UsageError: Error, CustomStringConvertible, Sendable {
  package var message: String
  package var command: String
  package var description: String { message }
  package init(message: String, command: String) {
    self.message = message
    self.command = command
  }
}
