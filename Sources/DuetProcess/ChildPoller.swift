import Foundation

/// A child as a poller knows it: a number never reused by that poller, so a late
/// request for a child that has ended cannot reach a newer one.
package struct ChildID: Hashable, Comparable, Sendable {
  let value: UInt64
  init(_ value: UInt64) { self.value = value }
  package static func < (a: ChildID, b: ChildID) -> Bool { a.value < b.value }
}

/// One child to start: a program by path, with its whole argv (never a shell
/// string unless the program is the shell).
package struct SpawnSpec: Sendable, Equatable {
  var path: String
  var arguments: [String]
  var directory: String
  var environment: [String: String]
  /// Stderr to /dev/null instead of merged with stdout (a git query's noise).
  var discardErrors: Bool
  /// A file the child finds open for writing at a descriptor of its own
  /// (bubblewrap's status, issue 56), opened by the spawn: no shell in between.
  var statusFile: StatusFile?

  package init(path: String, arguments: [String], directory: String, environment: [String: String], discardErrors: Bool = false,
               statusFile: StatusFile? = nil) {
    self.path = path
    self.arguments = arguments
    self.directory = directory
    self.environment = environment
    self.discardErrors = discardErrors
    self.statusFile = statusFile
  }

  /// `path`, made empty (or new, mode 0600) and open for writing at `descriptor` in the child (above stderr).
  package struct StatusFile: Sendable, Equatable {
    var descriptor: Int32
    var path: String
    package init(descriptor: Int32, path: String) {
      self.descriptor = descriptor
      self.path = path
    }
  }

  /// `/bin/sh -c command`.
  package static func shell(_ command: String, directory: String, environment: [String: String]) -> SpawnSpec {
    SpawnSpec(path: "/bin/sh", arguments: ["/bin/sh", "-c", command], directory: directory, environment: environment)
  }
}

/// What one wait of a poller saw.
package enum PollEvent {
  /// Bytes the child wrote (stdout and stderr merged); valid only during the call.
  case output(ChildID, UnsafeRawBufferPointer)
  /// The child's pipe ended, or was dropped after what was in it was read.
  case closed(ChildID)
  /// The child exited; what was left of its process group was killed and it was reaped.
  case exited(ChildID, status: Int32)
  /// The stop latch tripped: a signal asked duet to stop. Reported once.
  case stopRequested
}

/// Hands a message to a poller from another thread (a built-in's result,
/// Ctrl-C) and wakes its `wait`; the loop takes it with `takePosted`.
package struct Waker: Sendable {
  private let body: @Sendable (any Sendable) -> Void
  init(_ body: @escaping @Sendable (any Sendable) -> Void) { self.body = body }
  func post(_ message: any Sendable) { body(message) }
}

/// Everything an event loop waits on, behind one seam: starting children,
/// signalling their groups, and one blocking wait that reports what happened.
/// `SystemPoller` does it with poll(2), pipes and pidfds (kqueue on macOS);
/// tests hand the loop a scripted poller instead, as ninja's build tests hand
/// the builder a fake command runner, and so drive a whole run on one thread
/// with no process and no real time.
package protocol ChildPoller: AnyObject {
  func spawn(_ spec: SpawnSpec) throws(ChildProcess.SpawnError) -> ChildID
  /// Sends `signal` to the child's whole process group.
  func signalGroup(_ child: ChildID, _ signal: Int32)
  /// Stops waiting for the child's pipe (a grandchild outside its group holds
  /// it): what is in it is read and reported, then `closed`, at the next wait.
  func drop(_ child: ChildID)
  /// Blocks until something happens, a message is posted, or `timeout`
  /// nanoseconds pass (nil: no limit), reporting each thing seen.
  func wait(timeout: UInt64?, _ report: (PollEvent) -> Void)
  /// Posts messages from any thread; each wakes the `wait`.
  var waker: Waker { get }
  /// The messages posted since the last call, in the order posted; never blocks.
  /// Called once after each `wait` (and once before the first): the real poller
  /// reads its pipe only when that wait found it readable, so a message posted
  /// after the wait comes with the next turn, whose wait returns at once.
  func takePosted() -> [any Sendable]
}
