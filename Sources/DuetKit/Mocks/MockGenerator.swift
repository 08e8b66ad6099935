import Foundation

/// Runs an entry's `generator` command and waits for it: `/bin/sh -c` in the tree
/// root, through the same `posix_spawn` path and reaper the lanes use, with the
/// output file named in `DUET_MOCK_OUTPUT` and the root in `DUET_ROOT`.
public enum MockGenerator {
  /// How a generator ended: its exit code (nil when a signal ended it) and what it printed.
  public struct Outcome: Sendable {
    public var exitCode: Int32?
    public var signal: Int32?
    public var output: String
  }

  /// What runs a generator; tests may pass their own.
  public typealias Runner = @Sendable (_ command: String, _ root: URL, _ output: URL) throws -> Outcome

  /// At most this much of a generator's output is kept, the end of it.
  static let keptOutput = 64 * 1024

  public static let shell: Runner = { command, root, output in
    var environment = ProcessInfo.processInfo.environment
    environment["DUET_MOCK_OUTPUT"] = output.path
    environment["DUET_ROOT"] = root.path
    let child = try ChildProcess.spawnShell(command, directory: root.path, environment: environment)
    let result = ChildCapture.wait(child, keep: keptOutput)
    let code = result.waitStatus
    return Outcome(exitCode: exitCode(ofWaitStatus: code), signal: terminatingSignal(ofWaitStatus: code), output: String(decoding: result.output, as: UTF8.self))
  }
}
