import CProcessShim
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread that reads every child's output pipe with `poll`, as ninja does,
/// and on Linux also notices each child's exit there, through its pidfd: a
/// lane's end is seen on one thread, with no SIGCHLD handler or queue between.
///
/// Dispatch read sources were tried first: with hundreds of short-lived pipes
/// whose descriptor numbers are reused at once, libdispatch's epoll backend on
/// Linux crashed in `_dispatch_event_loop_drain`. A poll loop over the open pipes
/// plus a wake-up pipe has no such state to go stale.
///
/// Each pipe is known by an owner token, never by its descriptor number: a
/// late `drop` for a pipe that has closed cannot reach a new pipe that got the
/// same number.
package final class OutputPump: Sendable {
  package static let shared = OutputPump()

  /// Who owns one pipe being read.
  package struct Token: Hashable, Sendable {
    fileprivate let value: UInt64
  }

  /// Called on the pump thread: bytes as they arrive, then once at the end.
  package struct Reader: Sendable {
    package var onBytes: @Sendable (UnsafeRawBufferPointer) -> Void
    package var onClose: @Sendable () -> Void
  }

  /// A child whose exit the pump waits for, by the pidfd that becomes readable when it exits.
  package struct ExitWatch: Sendable {
    package var pidfd: Int32
    package var pid: pid_t
    /// Called on the pump thread with the wait status, once the group is killed and the child reaped.
    package var onExit: @Sendable (Int32) -> Void
  }

  private struct Requests: Sendable {
    var nextToken: UInt64 = 1
    var added: [(Token, Int32, Reader)] = []
    var dropped: Set<Token> = []
    var exits: [ExitWatch] = []
    var timers = DeadlineList()
  }

  private let requests = Locked(Requests())
  private let wakeRead: Int32
  private let wakeWrite: Int32

  private init() {
    var fds: [Int32] = [-1, -1]
    if duet_pipe_cloexec_nonblocking(&fds) == 0 {
      wakeRead = fds[0]
      wakeWrite = fds[1]
    } else {
      wakeRead = -1
      wakeWrite = -1
    }
    let thread = Thread { [self] in self.loop() }
    thread.name = "duet.output"
    thread.start()
  }

  /// Starts reading `fd` (non-blocking); the pump closes it after `onClose`.
  package func add(_ fd: Int32, _ reader: Reader) -> Token {
    let token = requests.withLock { requests -> Token in
      let token = Token(value: requests.nextToken)
      requests.nextToken += 1
      requests.added.append((token, fd, reader))
      return token
    }
    wake()
    return token
  }

  /// Runs `body` on the pump's thread once `seconds` have passed; nothing
  /// cancels it, so the body checks whether it is still wanted.
  package func after(_ seconds: Double, _ body: @escaping @Sendable () -> Void) {
    let deadline = DeadlineList.at(after: seconds)
    requests.withLock { $0.timers.add(at: deadline, body) }
    wake()
  }

  /// Waits for a child's exit by its pidfd, which the pump then closes.
  package func watchExit(_ exit: ExitWatch) {
    requests.withLock { $0.exits.append(exit) }
    wake()
  }

  /// Stops reading the pipe of `token` early (a grandchild outside the group
  /// holds it open); does nothing when that pipe has already closed.
  package func drop(_ token: Token) {
    requests.withLock { _ = $0.dropped.insert(token) }
    wake()
  }

  /// Wakes the pump's `poll`; not needed on the pump's own thread (a lane
  /// started as another ended), which takes the requests before it polls again.
  private func wake() {
    guard duet_is_pump_thread() == 0 else { return }
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  /// Bytes read from one pipe before the others get their turn.
  package static let burst = 1 << 20
  /// Bytes read from a pipe that is being dropped before it is closed.
  package static let dropDrainLimit = 16 << 20

  /// Reads until the pipe would block, ends, or `limit` bytes; true when it ended.
  private func drain(_ entry: (fd: Int32, reader: Reader), buffer: UnsafeMutableRawBufferPointer, limit: Int) -> Bool {
    var total = 0
    while total < limit {
      let n = read(entry.fd, buffer.baseAddress, buffer.count)
      if n > 0 {
        entry.reader.onBytes(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        total += n
        continue
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return false }
      return true
    }
    return false
  }

  /// Reaps the children whose pidfds `polled` reports ready and calls their
  /// handlers; keeps the others.
  private func reapExited(_ exits: inout [ExitWatch], _ polled: ArraySlice<pollfd>) {
    var waiting: [ExitWatch] = []
    for (watch, entry) in zip(exits, polled) {
      guard entry.revents != 0 else {
        waiting.append(watch)
        continue
      }
      let status = ChildReaper.killGroupAndReap(watch.pid)
      close(watch.pidfd)
      watch.onExit(status)
    }
    exits = waiting
  }

  /// Takes what other threads asked for since the last round.
  private func takeRequests() -> Requests {
    requests.withLock { requests in
      defer {
        requests.added.removeAll()
        requests.dropped.removeAll()
        requests.exits.removeAll()
        requests.timers = DeadlineList()
      }
      return requests
    }
  }

  private func loop() {
    duet_mark_pump_thread()
    var readers: [Token: (fd: Int32, reader: Reader)] = [:]
    var exits: [ExitWatch] = []
    var timers = DeadlineList()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
    while true {
      let taken = takeRequests()
      for (token, fd, reader) in taken.added { readers[token] = (fd, reader) }
      exits += taken.exits
      timers.merge(taken.timers)
      for token in taken.dropped {
        guard let entry = readers.removeValue(forKey: token) else { continue }
        // What the lane already wrote is kept: read what is there, then let go.
        _ = drain(entry, buffer: buffer, limit: OutputPump.dropDrainLimit)
        close(entry.fd)
        entry.reader.onClose()
      }

      let order = Array(readers.keys)
      var polled = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
      for token in order { polled.append(pollfd(fd: readers[token]!.fd, events: Int16(POLLIN), revents: 0)) }
      for watch in exits { polled.append(pollfd(fd: watch.pidfd, events: Int16(POLLIN), revents: 0)) }
      // A pipe dropped above may have ended a lane and started the next one
      // on this thread, unannounced: then only look, do not sleep.
      let pending = requests.withLock { !$0.added.isEmpty || !$0.dropped.isEmpty || !$0.exits.isEmpty || !$0.timers.isEmpty }
      let ready = poll(&polled, nfds_t(polled.count), pending ? 0 : timers.pollTimeout(now: DeadlineList.now()))
      for body in timers.takeDue(now: DeadlineList.now()) { body() }
      if ready < 0 { continue }
      if polled[0].revents != 0 {
        while read(wakeRead, buffer.baseAddress, buffer.count) > 0 {}
      }
      for (offset, token) in order.enumerated() where polled[offset + 1].revents != 0 {
        guard let entry = readers[token] else { continue }
        // A burst per pipe, then back to poll: a lane that prints faster than
        // duet reads must not starve the other lanes, their ends or the drops.
        if drain(entry, buffer: buffer, limit: OutputPump.burst) {
          readers[token] = nil
          close(entry.fd)
          entry.reader.onClose()
        }
      }
      // After the pipes: a child whose pipe closed in the same round ends here at once.
      reapExited(&exits, polled[(order.count + 1)...])
    }
  }
}
