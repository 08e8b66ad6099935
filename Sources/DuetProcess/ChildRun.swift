import Foundation

/// The one way duet runs a child to its end outside a verify's lanes: mock
/// generators, version probes and `git`. Each call turns an `EventLoop` of its
/// own on the calling thread, so the child gets what a lane gets (a process
/// group, a deadline that stops the whole group, a drain grace after the exit)
/// with no thread behind it. The stop latch stops it when duet is signalled.
package enum ChildRun {
  package struct Limits: Sendable {
    /// Seconds from the start until the group is stopped; nil: no deadline.
    var timeout: Double?
    /// Seconds between SIGTERM and SIGKILL.
    var killGrace: Double
    /// Seconds to keep reading after the child exited before dropping the pipe.
    var drainGrace: Double

    package init(timeout: Double?, killGrace: Double = 5, drainGrace: Double = 2) {
      self.timeout = timeout
      self.killGrace = killGrace
      self.drainGrace = drainGrace
    }
  }

  /// How a child ended.
  package struct End: Sendable, Equatable {
    /// The `waitpid` status; nil when the child never started.
    package var waitStatus: Int32?
    /// The deadline passed and the group was stopped.
    package var timedOut: Bool
    /// It was stopped from outside (Ctrl-C) before it ended.
    package var stopped: Bool
    /// Why the child could not start.
    package var spawnError: String?
    /// The machine, not the command, kept it from starting: no file descriptor,
    /// process or memory left (`EMFILE`, `ENFILE`, `EAGAIN`, `ENOMEM`).
    package var outOfResources: Bool = false

    package var exitCode: Int32? { waitStatus.flatMap(DuetProcess.exitCode(ofWaitStatus:)) }
    package var signal: Int32? { waitStatus.flatMap(terminatingSignal(ofWaitStatus:)) }
    package var succeeded: Bool { exitCode == 0 && !timedOut && !stopped }
  }

  /// What `capture` returns: how the child ended and the last bytes it printed.
  package struct Captured: Sendable {
    package var end: End
    /// The last `keep` bytes of its output (stdout and stderr merged unless stderr was discarded).
    package var output: [UInt8]
    package var text: String { String(decoding: output, as: UTF8.self) }
  }

  /// Runs a child to its end on the calling thread and keeps the last `keep`
  /// bytes of its output; `onBytes` also sees every byte (to hash a `git diff`
  /// without holding it).
  static func capture(_ spec: SpawnSpec, limits: Limits, keep: Int,
                             onBytes: ((UnsafeRawBufferPointer) -> Void)? = nil) -> Captured {
    let loop = EventLoop()
    var kept = BoundedBytes(limit: keep)
    var end: End?
    loop.start(spec, limits: limits,
               onBytes: { bytes in
                 onBytes?(bytes)
                 kept.append(bytes)
               },
               onEnd: { end = $0 })
    loop.run(until: { end != nil })
    return Captured(end: end!, output: kept.bytes)
  }

  /// `capture` of `arguments[0]` at `path`.
  package static func capture(path: String, arguments: [String], directory: String, environment: [String: String], limits: Limits,
                             keep: Int, onBytes: ((UnsafeRawBufferPointer) -> Void)? = nil) -> Captured {
    capture(SpawnSpec(path: path, arguments: arguments, directory: directory, environment: environment),
            limits: limits, keep: keep, onBytes: onBytes)
  }

  /// `capture` of `/bin/sh -c command`.
  package static func captureShell(_ command: String, directory: String, environment: [String: String], limits: Limits,
                                  keep: Int, onBytes: ((UnsafeRawBufferPointer) -> Void)? = nil) -> Captured {
    capture(.shell(command, directory: directory, environment: environment), limits: limits, keep: keep, onBytes: onBytes)
  }
}

/// The last `limit` bytes appended.
package struct BoundedBytes: Sendable {
  let limit: Int
  private(set) var storage: [UInt8] = []

  package init(limit: Int) { self.limit = max(0, limit) }

  package mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard limit > 0 else { return }
    storage.append(contentsOf: bytes.count > limit ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - limit)...]) : bytes)
    if storage.count > limit * 2 { storage.removeFirst(storage.count - limit) }
  }

  package var bytes: [UInt8] { Array(storage.suffix(limit)) }
}
