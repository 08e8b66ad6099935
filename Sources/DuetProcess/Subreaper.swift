import CProcessShim
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Descendants that escape a lane's process group (`setsid`, a daemon) would
/// outlive the run. On Linux duet makes itself their subreaper, so they are
/// re-parented to duet when their parent exits, and at the end of the run it
/// kills and reaps whatever it adopted. Elsewhere this does nothing, and the
/// README says so.
package enum Subreaper {
  /// Whether duet now adopts orphaned descendants.
  @discardableResult
  package static func enable() -> Bool {
    duet_become_subreaper() == 0
  }

  /// Kills (SIGKILL, the process and its group) and reaps every child duet has
  /// that nobody waits for: re-parented leftovers. Call it once duet's own
  /// children have ended (verify waits for its `git rev-parse` first); `watched`
  /// names any that may still run. Returns the pids of those that were still
  /// running outside the groups duet started (`laneGroups`): zombies, and
  /// processes still in a lane's group (its group was signalled and they are
  /// on their way out, or were re-parented a moment before dying), are only
  /// killed and reaped, never reported as escaped.
  @discardableResult
  package static func killAdopted(except watched: Set<pid_t> = [], laneGroups: Set<pid_t> = []) -> [pid_t] {
    #if os(Linux)
    // No child at all (the usual end: every lane reaped, nothing adopted): no
    // need to read every process on the machine, thousands on a CI host.
    var info = siginfo_t()
    if waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD { return [] }
    let me = getpid()
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    var adopted: [pid_t] = []
    var running: [pid_t] = []
    for entry in entries {
      guard let pid = pid_t(entry), pid != me, !watched.contains(pid),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")") else { continue }
      // Fields after the command name: state, ppid, pgrp, ...
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 2, pid_t(fields[1]) == me else { continue }
      adopted.append(pid)
      if fields[0] != "Z" && !(pid_t(fields[2]).map(laneGroups.contains) ?? false) { running.append(pid) }
    }
    for pid in adopted {
      kill(pid, SIGKILL)
      if let group = Optional(getpgid(pid)), group > 1, group != getpgrp() { kill(-group, SIGKILL) }
    }
    for pid in adopted {
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    return running
    #else
    return []
    #endif
  }
}
