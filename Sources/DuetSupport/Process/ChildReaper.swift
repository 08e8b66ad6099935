import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reaps children as they exit, driven by a SIGCHLD dispatch source (with a slow
/// poll as a safety net), and reports each one's wait status once.
///
/// Only pids it was asked to watch are waited for, so children Foundation or a
/// test harness started are left to their owners. An exited child is first seen
/// with `WNOWAIT`, then its process group is killed while the zombie still holds
/// the pid (so the group id cannot be reused), and only then is it reaped: a
/// lane's background leftovers never outlive it.
public final class ChildReaper: Sendable {
  public static let shared = ChildReaper()

  private let queue = DispatchQueue(label: "duet.reaper")
  /// Touched only on `queue`.
  private let watched = Locked<[pid_t: @Sendable (Int32) -> Void]>([:])
  /// The SIGCHLD source and the safety-net timer, kept alive for the process's life.
  private let sources: Locked<[any DispatchSourceProtocol]>

  private init() {
    let source = DispatchSource.makeSignalSource(signal: SIGCHLD, queue: queue)
    let timer = DispatchSource.makeTimerSource(queue: queue)
    sources = Locked([source, timer])
    source.setEventHandler { [unowned self] in self.reapExited() }
    source.resume()
    timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
    timer.setEventHandler { [unowned self] in self.reapExited() }
    timer.resume()
  }

  /// Calls `handler` with the wait status when `pid` exits.
  public func watch(_ pid: pid_t, handler: @escaping @Sendable (Int32) -> Void) {
    queue.async {
      self.watched.withLock { $0[pid] = handler }
      self.reapExited()
    }
  }

  private func reapExited() {
    for (pid, handler) in watched.current {
      var info = siginfo_t()
      guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else {
        if errno == ECHILD { watched.withLock { $0[pid] = nil } }
        continue
      }
      guard childPid(info) == pid else { continue }
      let status = ChildReaper.killGroupAndReap(pid)
      watched.withLock { $0[pid] = nil }
      handler(status)
    }
  }

  /// For a child known to have exited (still a zombie): kills what is left of
  /// its process group, then reaps it and returns its wait status.
  package static func killGroupAndReap(_ pid: pid_t) -> Int32 {
    signalGroup(pid, SIGKILL)
    var status: Int32 = 0
    var result: pid_t
    repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
    return status
  }

  private func childPid(_ info: siginfo_t) -> pid_t {
    #if os(Linux)
    return info._sifields._sigchld.si_pid
    #else
    return info.si_pid
    #endif
  }
}

/// The exit code of a wait status, or nil when a signal ended the process.
public func exitCode(ofWaitStatus status: Int32) -> Int32? {
  (status & 0x7F) == 0 ? (status >> 8) & 0xFF : nil
}

/// The signal that ended the process, or nil when it exited.
public func terminatingSignal(ofWaitStatus status: Int32) -> Int32? {
  let signal = status & 0x7F
  return signal != 0 && signal != 0x7F ? signal : nil
}
