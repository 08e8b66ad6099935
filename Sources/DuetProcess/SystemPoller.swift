import CProcessShim
import DuetSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real poller: one `poll(2)` over a wake-up pipe, the stop latch, every
/// child's output pipe and every child's exit, on the thread that calls `wait`.
/// A child's exit is a descriptor like its pipe: a pidfd on Linux, and on macOS
/// a kqueue with one `EVFILT_PROC` entry per child, so both platforms end a
/// child the same way, with no SIGCHLD handler, reaper thread or polling timer.
/// (A Linux kernel before 5.2 has no pidfd; then the wait wakes every 20 ms to
/// ask `waitid` without reaping.)
///
/// Dispatch read sources were tried first: with hundreds of short-lived pipes
/// whose descriptor numbers are reused at once, libdispatch's epoll backend on
/// Linux crashed in `_dispatch_event_loop_drain`. A poll over the open
/// descriptors has no such state to go stale.
package final class SystemPoller: ChildPoller {
  private struct Child {
    var pid: pid_t
    /// The output pipe; -1 once it ended or was dropped.
    var pipe: Int32
    /// The pidfd (Linux); -1 on macOS and on kernels without.
    var pidfd: Int32
    var exited = false
    var dropping = false
  }

  /// Bytes read from one pipe before the others get their turn.
  static let burst = 1 << 20
  /// Bytes read from a pipe that is being dropped before it is closed.
  static let dropDrainLimit = 16 << 20

  private var children: [ChildID: Child] = [:]
  private var nextID: UInt64 = 1
  private let wakePipe: WakePipe
  private var stopReported = false
  /// Whether the wake-up pipe may hold messages: the last poll found it
  /// readable (or none has run yet), so `takePosted` reads it only then and a
  /// turn with no message makes no `read` that only says EAGAIN.
  private var wakeMayHold = true
  /// Children whose exit is not a descriptor yet (macOS: already gone when registered).
  private var exitUnwatched: Set<ChildID> = []
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
  #if canImport(Darwin)
  private let queue: Int32 = kqueue()
  #endif

  package let waker: Waker

  /// `wakeUpPipe: false` is a machine with no descriptor left for it (tests).
  package init(wakeUpPipe: Bool = true) {
    wakePipe = WakePipe(made: wakeUpPipe)
    let pipe = wakePipe
    // The waker keeps the pipe open: a built-in that ends after its loop is
    // gone still writes to this pipe, never to a descriptor number reused since.
    waker = Waker { pipe.post($0) }
  }

  deinit {
    for child in children.values {
      // A child never reaped here leaves the process-wide counts: its group is no
      // longer duet's to signal, and its pid may be reused once someone reaps it.
      if !child.exited {
        duet_group_live(child.pid, 0)
        duet_children_add(-1)
      }
      if child.pipe >= 0 { close(child.pipe) }
      if child.pidfd >= 0 { close(child.pidfd) }
    }
    #if canImport(Darwin)
    close(queue)
    #endif
    buffer.deallocate()
  }

  /// The process groups this poller started (each child leads its own): a
  /// process still in one after its leader ended was stopped with its group,
  /// not left running outside it (`Subreaper.killAdopted`).
  package private(set) var startedGroups = Set<pid_t>()

  package func spawn(_ spec: SpawnSpec) throws(ChildProcess.SpawnError) -> ChildID {
    let process = try ChildProcess.spawn(spec)
    startedGroups.insert(process.pid)
    let id = ChildID(nextID)
    nextID += 1
    children[id] = Child(pid: process.pid, pipe: process.output, pidfd: process.pidfd)
    duet_children_add(1)
    duet_group_live(process.pid, 1)
    if process.pidfd < 0 && !watchExit(process.pid) { exitUnwatched.insert(id) }
    return id
  }

  package func signalGroup(_ child: ChildID, _ signal: Int32) {
    guard let entry = children[child], !entry.exited else { return }
    DuetProcess.signalGroup(entry.pid, signal)
  }

  package func drop(_ child: ChildID) {
    children[child]?.dropping = true
  }

  package func takePosted() -> [any Sendable] {
    // A message posted after the poll is read on the next turn: that poll returns at once.
    guard wakeMayHold || !wakePipe.wakes else { return [] }
    wakeMayHold = false
    return wakePipe.take(into: buffer)
  }

  package func wait(timeout: UInt64?, _ report: (PollEvent) -> Void) {
    let dropped = finishDrops(report)
    var polled: [pollfd] = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
    polled.append(pollfd(fd: stopReported ? -1 : StopLatch.descriptor, events: Int16(POLLIN), revents: 0))
    let order = children.keys.sorted()
    for id in order { polled.append(pollfd(fd: children[id]!.pipe, events: Int16(POLLIN), revents: 0)) }
    let exitFDs = exitDescriptors(order)
    for fd in exitFDs { polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
    let ready = poll(&polled, nfds_t(polled.count), dropped ? 0 : pollTimeout(timeout))
    // A readable wake-up pipe holds messages, which the loop takes after the wait (`takePosted`).
    wakeMayHold = ready < 0 || polled[0].revents != 0
    guard ready >= 0 else { return }
    if polled[1].revents != 0 {
      stopReported = true
      report(.stopRequested)
    }
    for (offset, id) in order.enumerated() where polled[offset + 2].revents != 0 { readPipe(id, report) }
    // After the pipes: a child whose pipe closed in the same round ends here at once.
    let exitsAt = order.count + 2
    reapExited(order, exitReady: exitFDs.indices.map { polled[exitsAt + $0].revents != 0 }, report)
  }

  // MARK: - Pipes

  /// Reads a burst from the child's pipe, then back to poll: a lane that prints
  /// faster than duet reads must not starve the other lanes or their ends.
  private func readPipe(_ id: ChildID, _ report: (PollEvent) -> Void) {
    guard let pipe = children[id]?.pipe, pipe >= 0 else { return }
    if drain(id, pipe, limit: SystemPoller.burst, report) { closePipe(id, report) }
  }

  /// Reads until the pipe would block, ends, or `limit` bytes; true when it ended.
  private func drain(_ id: ChildID, _ pipe: Int32, limit: Int, _ report: (PollEvent) -> Void) -> Bool {
    var total = 0
    while total < limit {
      let n = read(pipe, buffer.baseAddress, buffer.count)
      if n > 0 {
        report(.output(id, UnsafeRawBufferPointer(rebasing: buffer[0..<n])))
        total += n
        continue
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return false }
      return true
    }
    return false
  }

  private func closePipe(_ id: ChildID, _ report: (PollEvent) -> Void) {
    guard let pipe = children[id]?.pipe, pipe >= 0 else { return }
    close(pipe)
    children[id]?.pipe = -1
    report(.closed(id))
    forgetIfDone(id)
  }

  /// What a lane already wrote to a dropped pipe is kept: read what is there, then let go.
  private func finishDrops(_ report: (PollEvent) -> Void) -> Bool {
    let dropping = children.filter { $0.value.dropping && $0.value.pipe >= 0 }.keys.sorted()
    for id in dropping {
      _ = drain(id, children[id]!.pipe, limit: SystemPoller.dropDrainLimit, report)
      closePipe(id, report)
    }
    return !dropping.isEmpty
  }

  // MARK: - Exits

  private func pollTimeout(_ timeout: UInt64?) -> Int32 {
    var milliseconds = timeout.map { Int32(min(($0 + 999_999) / 1_000_000, UInt64(Int32.max))) } ?? -1
    // No child exit to wait on, or no wake-up pipe (its messages are looked for every 20 ms).
    if !exitUnwatched.isEmpty || !wakePipe.wakes { milliseconds = milliseconds < 0 ? 20 : min(milliseconds, 20) }
    return milliseconds
  }

  #if canImport(Darwin)
  /// One kqueue holds every child's exit.
  private func exitDescriptors(_ order: [ChildID]) -> [Int32] { [queue] }

  /// Which children exited: when the kqueue has news (drained here) or a child
  /// was already gone when registered, each is asked without reaping it.
  private func exitedChildren(_ order: [ChildID], _ ready: [Bool]) -> [ChildID] {
    guard ready.contains(true) || !exitUnwatched.isEmpty else { return [] }
    var events = [kevent](repeating: kevent(), count: 64)
    var zero = timespec(tv_sec: 0, tv_nsec: 0)
    while kevent(queue, nil, 0, &events, Int32(events.count), &zero) == Int32(events.count) {}
    return order.filter { children[$0].map { !$0.exited && hasExited($0.pid) } ?? false }
  }

  /// Registers the child's exit in the kqueue; false when it is already gone.
  private func watchExit(_ pid: pid_t) -> Bool {
    var change = kevent(ident: UInt(pid), filter: Int16(EVFILT_PROC), flags: UInt16(EV_ADD | EV_ONESHOT),
                        fflags: UInt32(NOTE_EXIT), data: 0, udata: nil)
    return kevent(queue, &change, 1, nil, 0, nil) == 0
  }
  #else
  /// Each child's pidfd, in `order`; -1 (ignored by poll) for one without.
  private func exitDescriptors(_ order: [ChildID]) -> [Int32] {
    order.map { children[$0].map { $0.exited ? -1 : $0.pidfd } ?? -1 }
  }

  private func exitedChildren(_ order: [ChildID], _ ready: [Bool]) -> [ChildID] {
    order.indices.compactMap { offset in
      let id = order[offset]
      guard let child = children[id], !child.exited else { return nil }
      return ready[offset] || (exitUnwatched.contains(id) && hasExited(child.pid)) ? id : nil
    }
  }

  /// Without a pidfd there is nothing to register: the wait asks `waitid` every 20 ms.
  private func watchExit(_ pid: pid_t) -> Bool { false }
  #endif

  private func reapExited(_ order: [ChildID], exitReady: [Bool], _ report: (PollEvent) -> Void) {
    for id in exitedChildren(order, exitReady) {
      guard let child = children[id] else { continue }
      // Reaped by someone else (a waitpid(-1) elsewhere in the process): the pid
      // may be reused already, so nothing is signalled, and the end is a failure.
      // Out of the live groups before the reap frees its pid for reuse.
      duet_group_live(child.pid, 0)
      let status = reapable(child.pid) ? killGroupAndReap(child.pid) : SIGKILL
      if child.pidfd >= 0 { close(child.pidfd) }
      children[id]?.exited = true
      children[id]?.pidfd = -1
      exitUnwatched.remove(id)
      duet_children_add(-1)
      report(.exited(id, status: status))
      forgetIfDone(id)
    }
  }

  private func forgetIfDone(_ id: ChildID) {
    if let child = children[id], child.exited, child.pipe < 0 { children[id] = nil }
  }

  /// Whether the child is still this process's to reap (it exited, or runs).
  private func reapable(_ pid: pid_t) -> Bool {
    var info = siginfo_t()
    return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 || errno != ECHILD
  }

  /// Whether the child has exited (or is gone), asked without reaping it.
  private func hasExited(_ pid: pid_t) -> Bool {
    var info = siginfo_t()
    guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
    #if os(Linux)
    return info._sifields._sigchld.si_pid == pid
    #else
    return info.si_pid == pid
    #endif
  }

}

/// A non-blocking pipe that carries messages to a loop and wakes its poll:
/// a poster hands a message over (a reference to it, retained, written as
/// one atomic write of a pointer's bytes) and the loop takes it back with a
/// read. The kernel orders the two, and the message belongs to one thread at
/// a time, so while the pipe has room nothing is shared and nothing locked.
/// Closed when the last owner lets go; what was never taken is released then.
///
/// A post never waits for room: when the pipe is full, the message waits in
/// a list beside it. A post that waited could wait for itself: a piece that
/// runs on the loop's own thread (no worker thread could be made) posts to
/// that loop, its only reader.
private final class WakePipe: Sendable {
  /// One message, boxed for the trip through the pipe.
  private final class Posted {
    let message: any Sendable
    init(_ message: any Sendable) { self.message = message }
  }

  let read: Int32
  let write: Int32
  static let width = MemoryLayout<UInt>.size
  /// Messages that wait beside the pipe: it was full, or none could be made
  /// (no descriptor left: the loop then looks every 20 ms instead of being
  /// woken). Only then is a lock on the loop's path; a dropped message would
  /// leave the loop waiting for work that ended.
  private let beside = Locked<[Posted]>([])
  /// How many wait beside the pipe, read by every post and take without the
  /// lock: a poster whose message waits there puts its next one behind it,
  /// not in the pipe ahead of it, and a take with none there takes no lock.
  /// The word's address as bits (made and read only by `duet_shared_word_*`,
  /// atomically); 0 when it could not be made, and then every post and take
  /// looks in the list.
  private let besideCount: UInt

  /// Whether a post wakes the loop's poll (the pipe was made).
  var wakes: Bool { write >= 0 }

  init(made: Bool) {
    var fds: [Int32] = [-1, -1]
    if !made || duet_pipe_cloexec_nonblocking(&fds) != 0 { fds = [-1, -1] }
    read = fds[0]
    write = fds[1]
    besideCount = UInt(bitPattern: duet_shared_word_make())
  }

  private var countWord: UnsafeMutablePointer<Int>? { UnsafeMutablePointer(bitPattern: besideCount) }

  /// Whether messages may wait beside the pipe now.
  private var mayWaitBeside: Bool { countWord.map { duet_shared_word_load($0) > 0 } ?? true }

  /// Hands the message to the loop: into the pipe, or beside it when the
  /// pipe is full or one of the poster's earlier messages waits there.
  func post(_ message: any Sendable) {
    let posted = Posted(message)
    if wakes && !mayWaitBeside && put(posted) != .full { return }
    beside.withLock { waiting in
      // Taken since: the pipe again, unless it is full.
      if wakes && waiting.isEmpty && put(posted) != .full { return }
      waiting.append(posted)
      duet_shared_word_store(countWord, waiting.count)
      // A take may have read the pipe empty since it was full: the pipe
      // must be readable again, or the loop sleeps with this message here.
      nudge()
    }
  }

  private enum Put { case written, full, closed }

  /// Writes the message's reference; a write that fails otherwise than on a
  /// full pipe (the loop's end closed: no loop to read it) releases it.
  private func put(_ posted: Posted) -> Put {
    var bits = UInt(bitPattern: Unmanaged.passRetained(posted).toOpaque())
    while true {
      let n = withUnsafeBytes(of: &bits) { Foundation.write(write, $0.baseAddress, WakePipe.width) }
      if n == WakePipe.width { return .written }
      if n < 0 && errno == EINTR { continue }
      Unmanaged<Posted>.fromOpaque(UnsafeMutableRawPointer(bitPattern: bits)!).release()
      return n < 0 && errno == EAGAIN ? .full : .closed
    }
  }

  /// Makes the pipe readable with a word that is no message (a take skips
  /// it); a full pipe is readable already.
  private func nudge() {
    guard wakes else { return }
    var zero: UInt = 0
    while withUnsafeBytes(of: &zero, { Foundation.write(write, $0.baseAddress, WakePipe.width) }) < 0 && errno == EINTR {}
  }

  /// The messages in the pipe now, then those beside it, in the order each
  /// poster posted them; never blocks. With none beside, the pipe is read
  /// with no lock. With some, the pipe and the list are read under the list's
  /// lock, so no poster puts a later message into the pipe after its earlier
  /// one went beside, until both are taken here.
  func take(into buffer: UnsafeMutableRawBufferPointer) -> [any Sendable] {
    guard mayWaitBeside else {
      let messages = readPipe(into: buffer)
      // One went beside while the pipe was read (and its nudge may have been
      // read too): the next poll must not sleep.
      if mayWaitBeside { nudge() }
      return messages
    }
    return beside.withLock { waiting in
      defer { waiting.removeAll(); duet_shared_word_store(countWord, 0) }
      // After the pipe: a poster's messages beside it came after those in it.
      return readPipe(into: buffer) + waiting.map(\.message)
    }
  }

  /// The messages in the pipe now, in the order posted.
  private func readPipe(into buffer: UnsafeMutableRawBufferPointer) -> [any Sendable] {
    var messages: [any Sendable] = []
    while read >= 0 {
      // Every write is one pointer, atomic, so a read returns whole pointers.
      let n = Foundation.read(read, buffer.baseAddress, buffer.count - buffer.count % WakePipe.width)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      for offset in stride(from: 0, to: n, by: WakePipe.width) {
        let bits = buffer.load(fromByteOffset: offset, as: UInt.self)
        guard let raw = UnsafeMutableRawPointer(bitPattern: bits) else { continue }
        messages.append(Unmanaged<Posted>.fromOpaque(raw).takeRetainedValue().message)
      }
    }
    return messages
  }

  deinit {
    if read >= 0 {
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
      _ = take(into: buffer)
      buffer.deallocate()
      close(read)
    }
    if write >= 0 { close(write) }
    duet_shared_word_free(countWord)
  }
}
