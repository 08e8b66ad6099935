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
    let done = DispatchSemaphore(value: 0)
    let status = StatusBox()
    ChildReaper.shared.watch(child.pid) { code in
      status.value = code
      done.signal()
    }
    // Blocking reads until every writer is gone: the reaper kills the child's
    // process group when the shell exits, so leftovers cannot hold the pipe open.
    _ = fcntl(child.output, F_SETFL, fcntl(child.output, F_GETFL) & ~O_NONBLOCK)
    var kept = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      kept.append(contentsOf: chunk[0..<n])
      if kept.count > keptOutput * 2 { kept.removeFirst(kept.count - keptOutput) }
    }
    close(child.output)
    done.wait()
    let code = status.value
    return Outcome(exitCode: exitCode(ofWaitStatus: code), signal: terminatingSignal(ofWaitStatus: code), output: String(decoding: kept.suffix(keptOutput), as: UTF8.self))
  }
}

private final class StatusBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Int32 = 0
  var value: Int32 {
    get { lock.lock(); defer { lock.unlock() }; return stored }
    set { lock.lock(); stored = newValue; lock.unlock() }
  }
}
