import Foundation
import DuetSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread's event loop, as ninja's builder has one: it starts children,
/// reads their output, notices their exits, keeps their deadlines and runs what
/// other threads post to it, all on the thread that calls `turn`. Nothing in it
/// is shared, so nothing in it is locked: what other threads post reaches it
/// through the poller (`SystemPoller`: through its wake-up pipe, as values).
///
/// A child ends once it has exited and its pipe has closed; a grandchild that
/// escaped the group (`setsid`) and holds the pipe is given `drainGrace`, then
/// the pipe is dropped. A deadline stops the whole group: SIGTERM, then SIGKILL
/// after `killGrace`. What waits and what the time is come from the poller and
/// the clock it is given, so tests drive it by hand.
package final class EventLoop {
  private struct Child {
    var limits: ChildRun.Limits
    var onBytes: (UnsafeRawBufferPointer) -> Void
    var onEnd: (ChildRun.End) -> Void
    var status: Int32?
    var closed = false
    var timedOut = false
    var stopped = false
    var timers: [DeadlineList.Token] = []
  }

  let poller: any ChildPoller
  package let clock: any RunClock
  private var children: [ChildID: Child] = [:]
  private var deadlines = DeadlineList()
  /// What to do with a message another thread posted; runs on this loop's thread.
  package var onMessage: ((any Sendable) -> Void)?
  /// What to do when the stop latch trips (a signal asked duet to stop); by
  /// default every child is stopped.
  package var onStop: (() -> Void)?
  /// Called just before the loop blocks in the poller: what the turn left for
  /// other threads (the observer's calls) goes out once the turn has started
  /// what it could. At most once per `beforeWaitInterval` seconds: a skipped
  /// call is made by a deadline within the interval, so nothing waits longer.
  package var beforeWait: (() -> Void)?
  /// The least time between two `beforeWait` calls (0: every turn). Each call
  /// wakes another thread, which on two busy cores the lanes wait behind.
  package var beforeWaitInterval: Double = 0
  private var lastBeforeWait: UInt64?
  private var beforeWaitDue: DeadlineList.Token?
  /// Whether the stop latch has tripped; children started after it are stopped at once.
  private(set) var stopRequested = false

  package init(poller: any ChildPoller = SystemPoller(), clock: any RunClock = SystemClock()) {
    self.poller = poller
    self.clock = clock
  }

  /// Children started and not yet ended.
  var running: Int { children.count }

  /// Starts a child; `onBytes` gets its output and `onEnd` its end, both on this
  /// loop's thread during a `turn`. A child that cannot start ends at the next
  /// turn (never inside `start`, so a caller is never re-entered); then nil.
  @discardableResult
  package func start(_ spec: SpawnSpec, limits: ChildRun.Limits, onBytes: @escaping (UnsafeRawBufferPointer) -> Void,
                    onEnd: @escaping (ChildRun.End) -> Void) -> ChildID? {
    let id: ChildID
    do {
      id = try poller.spawn(spec)
    } catch {
      let end = ChildRun.End(waitStatus: nil, timedOut: false, stopped: false, spawnError: error.description,
                             outOfResources: error.isOutOfResources)
      after(0) { onEnd(end) }
      return nil
    }
    children[id] = Child(limits: limits, onBytes: onBytes, onEnd: onEnd)
    if let timeout = limits.timeout { addTimer(id, after: timeout) { [unowned self] in self.deadlinePassed(id) } }
    if stopRequested { stop(id) }
    return id
  }

  /// Stops the child's group (Ctrl-C): SIGTERM now, SIGKILL after its grace.
  package func stop(_ id: ChildID) {
    guard let child = children[id], child.status == nil, !child.stopped else { return }
    children[id]?.stopped = true
    terminate(id)
  }

  /// Stops every child this loop runs.
  func stopAll() {
    for id in children.keys.sorted() { stop(id) }
  }

  /// Runs `body` on this loop's thread once `seconds` have passed.
  @discardableResult
  package func after(_ seconds: Double, _ body: @escaping () -> Void) -> DeadlineList.Token {
    deadlines.add(at: clock.deadline(after: seconds), body)
  }

  package func cancel(_ token: DeadlineList.Token) { deadlines.cancel(token) }

  /// Hands messages to this loop from any thread; `onMessage` gets them during the next turn.
  package var poster: Poster { Poster(waker: poller.waker) }

  /// Posts to an event loop from any thread: a built-in's result, Ctrl-C. A
  /// message, not a closure, so nothing of the loop's crosses a thread.
  package struct Poster: Sendable {
    fileprivate let waker: Waker

    package func post(_ message: any Sendable) { waker.post(message) }
  }

  /// One round: waits for the poller (at most until the earliest deadline),
  /// handles what it saw, fires the due deadlines, runs what was posted.
  func turn() {
    callBeforeWait()
    poller.wait(timeout: deadlines.timeout(now: clock.now)) { handle($0) }
    for body in deadlines.takeDue(now: clock.now) { body() }
    deliverPosted()
  }

  /// Calls `beforeWait` now, or, within `beforeWaitInterval` of the last
  /// call, once a deadline at the interval's end has woken the loop (one at a
  /// time). The deadline only wakes: the call is the next turn's, so an idle
  /// loop, whose turns come only from that deadline, blocks after it.
  private func callBeforeWait() {
    guard let beforeWait, beforeWaitDue == nil else { return }
    let now = clock.now, interval = UInt64(max(0, beforeWaitInterval) * 1e9)
    if let last = lastBeforeWait, now &- last < interval {
      beforeWaitDue = deadlines.add(at: last &+ interval) { [unowned self] in self.beforeWaitDue = nil }
      return
    }
    lastBeforeWait = now
    beforeWait()
  }

  /// Hands what other threads posted to `onMessage` now (a Ctrl-C that came
  /// before the run started is seen before anything starts).
  package func deliverPosted() {
    for message in poller.takePosted() { onMessage?(message) }
  }

  /// Turns until `done` says so.
  package func run(until done: () -> Bool) {
    while !done() { turn() }
  }

  // MARK: - Events

  private func handle(_ event: PollEvent) {
    switch event {
    case .output(let id, let bytes):
      children[id]?.onBytes(bytes)
    case .closed(let id):
      children[id]?.closed = true
      endIfDone(id)
    case .exited(let id, let status):
      exited(id, status)
    case .stopRequested:
      stopRequested = true
      StopLatch.heard()
      if let onStop { onStop() } else { stopAll() }
    }
  }

  private func exited(_ id: ChildID, _ status: Int32) {
    guard let child = children[id] else { return }
    children[id]?.status = status
    endIfDone(id)
    // A grandchild outside the group may hold the pipe; stop waiting for it.
    if !child.closed {
      addTimer(id, after: child.limits.drainGrace) { [unowned self] in
        if self.children[id]?.closed == false { self.poller.drop(id) }
      }
    }
  }

  private func endIfDone(_ id: ChildID) {
    guard let child = children[id], let status = child.status, child.closed else { return }
    children[id] = nil
    child.timers.forEach { deadlines.cancel($0) }
    child.onEnd(ChildRun.End(waitStatus: status, timedOut: child.timedOut, stopped: child.stopped, spawnError: nil))
  }

  // MARK: - Deadlines

  private func addTimer(_ id: ChildID, after seconds: Double, _ body: @escaping () -> Void) {
    children[id]?.timers.append(after(seconds, body))
  }

  private func deadlinePassed(_ id: ChildID) {
    guard let child = children[id], child.status == nil else { return }
    children[id]?.timedOut = true
    terminate(id)
  }

  private func terminate(_ id: ChildID) {
    poller.signalGroup(id, SIGTERM)
    guard let grace = children[id]?.limits.killGrace else { return }
    addTimer(id, after: grace) { [unowned self] in
      if self.children[id]?.status == nil { self.poller.signalGroup(id, SIGKILL) }
    }
  }
}
