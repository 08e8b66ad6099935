import Foundation
import DuetModel
import DuetProcess
import DuetSupport

/// Runs an entry's `generator` command and waits for it: `/bin/sh -c` in the tree
/// root, through the same `posix_spawn` path and reaper the lanes use, with the
/// output file named in `DUET_MOCK_OUTPUT` and the root in `DUET_ROOT`.
package enum MockGenerator {
  /// How a generator ended: its exit code (nil when a signal ended it) and what it printed.
  package struct Outcome: Sendable {
    var exitCode: Int32?
    var signal: Int32?
    var output: String
  }

  /// What runs a generator; tests may pass their own.
  package typealias Runner = @Sendable (_ command: String, _ root: URL, _ output: URL) throws -> Outcome

  /// At most this much of a generator's output is kept, the end of it.
  static let keptOutput = 64 * 1024

  /// A generator still running after this long is stopped (its whole process group).
  static let deadline: Double = 30 * 60

  /// Runs the generator with `environment` (the invocation's, for `duet mocks`)
  /// plus `DUET_MOCK_OUTPUT` and `DUET_ROOT`.
  package static func shell(environment: [String: String]) -> Runner {
    { command, root, output in try run(command, root: root, output: output, environment: environment) }
  }

  private static func run(_ command: String, root: URL, output: URL, environment: [String: String]) throws -> Outcome {
    var environment = environment
    environment[.mockOutput] = output.path
    environment[.root] = root.path
    let result = ChildRun.captureShell(command, directory: root.path, environment: environment,
                                       limits: .init(timeout: deadline, drainGrace: 5), keep: keptOutput)
    if let problem = result.end.spawnError { throw MockGeneratorError(message: problem) }
    var text = result.text
    if result.end.timedOut { text += "\nduet: the generator ran past \(DurationText.formatTimeout(deadline)) and was stopped\n" }
    return Outcome(exitCode: result.end.timedOut ? nil : result.end.exitCode, signal: result.end.signal, output: text)
  }
}

/// A generator that could not be started at all.
struct MockGeneratorError: Error, CustomStringConvertible, Sendable {
  var message: String
  var description: String { message }
}
