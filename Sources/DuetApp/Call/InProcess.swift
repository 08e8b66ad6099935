import DuetCommandLine
import Foundation

/// What an in-process call of duet did: the exit code and the text it wrote.
struct InvocationResult: Sendable {
  var exitCode: Int32
  var stdout: String
  var stderr: String
}

extension Invocation {
  /// Runs the command line in this process with the text going into buffers:
  /// no signal handler, no subreaper, no exit, no terminal. Safe to call from
  /// several threads at once; each call has its own console and state.
  func runInProcess() -> InvocationResult {
    var call = self
    call.ownsProcess = false
    let buffers = ConsoleOutput.buffers()
    let console = Console(environment: call.environment, output: buffers)
    let code = Entrypoint.run(call, console: console)
    let text = buffers.text
    return InvocationResult(exitCode: code, stdout: text.stdout, stderr: text.stderr)
  }
}
