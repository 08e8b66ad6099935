import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for a short-lived child (a mock generator, a `--version` probe) and keeps
/// the end of what it printed, killing its process group at a deadline if one is
/// given. Lanes use the scheduler's poller instead; this is for one child at a time.
public enum ChildCapture {
  public struct Result: Sendable {
    /// The `waitpid` status.
    public var waitStatus: Int32
    /// The last `keep` bytes of stdout and stderr, merged.
    public var output: [UInt8]
    public var timedOut: Bool
  }

  public static func wait(_ child: ChildProcess, keep: Int, timeout: Double? = nil) -> Result {
    let done = DispatchSemaphore(value: 0)
    let status = StatusBox()
    ChildReaper.shared.watch(child.pid) { code in
      status.value = code
      done.signal()
    }
    let deadline = timeout.map { Date().addingTimeInterval($0) }
    var timedOut = false
    var kept = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    // Read until every writer is gone: the reaper kills the child's process
    // group when it exits, so leftovers cannot hold the pipe open.
    reading: while true {
      var wait: Int32 = -1
      if let deadline, !timedOut {
        let left = deadline.timeIntervalSinceNow
        if left <= 0 {
          timedOut = true
          signalGroup(child.pid, SIGKILL)
        } else {
          wait = Int32(min(left * 1000, 1_000_000)) + 1
        }
      }
      var poller = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, wait)
      if ready < 0 && errno == EINTR { continue }
      if ready == 0 { continue }
      while true {
        let n = chunk.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
        if n <= 0 { break reading }
        kept.append(contentsOf: chunk[0..<n])
        if kept.count > keep * 2 { kept.removeFirst(kept.count - keep) }
      }
    }
    close(child.output)
    done.wait()
    return Result(waitStatus: status.value, output: Array(kept.suffix(keep)), timedOut: timedOut)
  }
}

/// A wait status handed from the reaper's queue to the waiting thread.
private final class StatusBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Int32 = 0
  var value: Int32 {
    get { lock.lock(); defer { lock.unlock() }; return stored }
    set { lock.lock(); stored = newValue; lock.unlock() }
  }
}
