import Foundation
@testable import DuetApp

/// Runs duet's command line in this process, as the binary would in `directory`
/// with `environment` added and an empty stdin: arguments in, text and exit code
/// out, without the cost of a process. The hook it would install names the built
/// binary. Safe to call from tests running in parallel.
func runDuet(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> DuetRun {
  let invocation = Invocation(
    arguments: arguments, workingDirectory: directory, environment: duetEnvironment(environment),
    standardInput: Data(), executable: duetBinary.resolvingSymlinksInPath(), ownsProcess: false)
  let result = invocation.runInProcess()
  return DuetRun(status: result.exitCode, stdout: result.stdout, stderr: result.stderr)
}
