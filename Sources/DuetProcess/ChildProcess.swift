import CProcessShim
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child started with `posix_spawn` in a process group of its own, with stdin
/// from `/dev/null` and stdout and stderr merged into one pipe (or stderr to
/// `/dev/null`, when the spec says so).
///
/// `posix_spawn` rather than Foundation's `Process`: `Process.waitUntilExit` polls,
/// which made 1,000 trivial lanes take seconds instead of a fraction of one.
package struct ChildProcess: Sendable {
  let pid: pid_t
  /// The read end of the merged stdout/stderr pipe, non-blocking, owned by the caller.
  let output: Int32
  /// A pidfd that becomes readable when the child exits (Linux), owned by the
  /// caller; -1 where there is none.
  let pidfd: Int32

  package enum SpawnError: Error, CustomStringConvertible, Sendable {
    case failed(String, Int32)

    /// Whether the machine ran out of what a child needs (descriptors,
    /// processes, memory): nothing the command itself did.
    var isOutOfResources: Bool {
      switch self {
      case .failed(_, let code): return code == EMFILE || code == ENFILE || code == EAGAIN || code == ENOMEM
      }
    }
    package var description: String {
      switch self {
      case .failed(let what, let code): return "\(what): \(String(cString: strerror(code)))"
      }
    }
  }

  #if !os(Linux)
  /// Serialises pipe creation and spawning, so no child inherits another's pipe
  /// on a system without `pipe2`. Linux makes each pipe close-on-exec as it
  /// makes it (`pipe2`), so the run loop's spawns take no lock there.
  private static let spawnLock = NSLock()
  #endif

  static func spawn(_ spec: SpawnSpec) throws(SpawnError) -> ChildProcess {
    let path = spec.path, arguments = spec.arguments, directory = spec.directory, environment = spec.environment
    #if !os(Linux)
    spawnLock.lock()
    defer { spawnLock.unlock() }
    #endif

    var fds: [Int32] = [-1, -1]
    guard duet_pipe_cloexec(&fds) == 0 else { throw .failed("cannot make a pipe", errno) }
    let readEnd = fds[0], writeEnd = fds[1]

    let argv = arguments.map { strdup($0) } + [nil]
    var envp = environment.map { Self.entry($0.key, $0.value) }
    envp.append(nil)
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    // A word left out for want of memory would start the child without it;
    // checked before the sort, whose comparison reads every entry.
    guard !envp.dropLast().contains(nil), !argv.dropLast().contains(nil) else {
      close(readEnd)
      close(writeEnd)
      throw .failed("cannot copy the arguments and environment for \(path)", ENOMEM)
    }
    // Sorted for a stable `env` in a lane: by the names' bytes, in C (Swift's
    // String comparison showed in every spawn's profile; same order for ASCII names).
    envp.withUnsafeMutableBufferPointer { duet_sort_environment($0.baseAddress, $0.count - 1) }
    var pid: pid_t = 0
    #if os(Linux)
    var pidfd: Int32 = -1
    let extra = spec.statusFile.map { open($0.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) } ?? -1
    if let file = spec.statusFile, extra < 0 {
      let code = errno
      close(readEnd)
      close(writeEnd)
      throw .failed("cannot open \(file.path) for \(path)", code)
    }
    let status = linuxSpawn(&pid, &pidfd, path: path, argv: argv, envp: envp, directory: directory, output: writeEnd,
                            discardErrors: spec.discardErrors, extra: (extra, spec.statusFile?.descriptor ?? -1))
    if extra >= 0 { close(extra) }
    #else
    let pidfd: Int32 = -1
    let status = posixSpawn(&pid, path: path, argv: argv, envp: envp, directory: directory, output: writeEnd,
                            discardErrors: spec.discardErrors, statusFile: spec.statusFile)
    #endif
    close(writeEnd)
    guard status == 0 else {
      close(readEnd)
      throw .failed("cannot start \(path) in \(directory)", status)
    }
    // A new pipe's status flags hold nothing else to keep: no F_GETFL first.
    _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
    return ChildProcess(pid: pid, output: readEnd, pidfd: pidfd)
  }

  /// `NAME=value` as a C string of its own (freed with `free`), copied from the
  /// two strings' bytes: no third String made and copied again, forty times a
  /// lane (a spawn's largest cost of duet's own after the kernel's).
  static func entry(_ name: String, _ value: String) -> UnsafeMutablePointer<CChar>? {
    var name = name, value = value
    return name.withUTF8 { key in
      value.withUTF8 { text in
        guard let raw = malloc(key.count + text.count + 2) else { return nil }
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        if let base = key.baseAddress { bytes.update(from: base, count: key.count) }
        bytes[key.count] = UInt8(ascii: "=")
        if let base = text.baseAddress { (bytes + key.count + 1).update(from: base, count: text.count) }
        bytes[key.count + 1 + text.count] = 0
        return raw.assumingMemoryBound(to: CChar.self)
      }
    }
  }

  /// Signals a lane starts with at their default action even if duet ignores them.
  private static let defaultSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM]

  #if os(Linux)
  /// `duet_spawn` (spawn.c): what `posixSpawn` does, without glibc's stack
  /// mapping per call, and with a pidfd for the exit; returns 0 or an errno.
  private static func linuxSpawn(_ pid: inout pid_t, _ pidfd: inout Int32, path: String, argv: [UnsafeMutablePointer<CChar>?],
                                 envp: [UnsafeMutablePointer<CChar>?], directory: String, output: Int32,
                                 discardErrors: Bool, extra: (descriptor: Int32, target: Int32)) -> Int32 {
    path.withCString { path in
      directory.withCString { directory in
        argv.withUnsafeBufferPointer { argv in
          envp.withUnsafeBufferPointer { envp in
            defaultSignals.withUnsafeBufferPointer { defaults in
              var request = duet_spawn_request(path: path, argv: argv.baseAddress, envp: envp.baseAddress, directory: directory,
                                               output: output, discard_errors: discardErrors ? 1 : 0,
                                               defaults: defaults.baseAddress, default_count: Int32(defaults.count),
                                               extra: extra.descriptor, extra_target: extra.target)
              return duet_spawn(&request, &pid, &pidfd)
            }
          }
        }
      }
    }
  }
  #else
  /// `posix_spawn` with the file actions and attributes `spawn` promises; returns its status.
  private static func posixSpawn(_ pid: inout pid_t, path: String, argv: [UnsafeMutablePointer<CChar>?], envp: [UnsafeMutablePointer<CChar>?],
                                 directory: String, output: Int32, discardErrors: Bool, statusFile: SpawnSpec.StatusFile?) -> Int32 {
    var actions: posix_spawn_file_actions_t?
    var attributes: posix_spawnattr_t?
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    if discardErrors {
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    } else {
      posix_spawn_file_actions_adddup2(&actions, output, 2)
    }
    duet_spawn_file_actions_addchdir(&actions, directory)
    if let statusFile {
      posix_spawn_file_actions_addopen(&actions, statusFile.descriptor, statusFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }

    // Own process group (so a timeout or Ctrl-C can signal the whole tree of the
    // lane), an empty signal mask, and default dispositions for the signals duet handles.
    var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    #if canImport(Darwin)
    // Only the descriptors the file actions name (0, 1, 2) reach the child.
    flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    posix_spawnattr_setflags(&attributes, Int16(flags))
    posix_spawnattr_setpgroup(&attributes, 0)
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in defaultSignals { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)

    return posix_spawn(&pid, path, &actions, &attributes, argv, envp)
  }
  #endif
}

