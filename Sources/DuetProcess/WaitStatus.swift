#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The exit code of a wait status, or nil when a signal ended the process.
package func exitCode(ofWaitStatus status: Int32) -> Int32? {
  (status & 0x7F) == 0 ? (status >> 8) & 0xFF : nil
}

/// The signal that ended the process, or nil when it exited.
package func terminatingSignal(ofWaitStatus status: Int32) -> Int32? {
  let signal = status & 0x7F
  return signal != 0 && signal != 0x7F ? signal : nil
}

/// For a child known to have exited (still a zombie): kills what is left of its
/// process group while the zombie still holds the pid (so the group id cannot
/// be reused), then reaps it and returns its wait status. A lane's background
/// leftovers never outlive it.
func killGroupAndReap(_ pid: pid_t) -> Int32 {
  signalGroup(pid, SIGKILL)
  var status: Int32 = 0
  var result: pid_t
  repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
  return status
}

/// Signals a child's whole process group: the shell and everything it started.
func signalGroup(_ pid: pid_t, _ signal: Int32) {
  _ = kill(-pid, signal)
}
