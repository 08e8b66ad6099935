import Foundation
import Testing
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The event loop with real children: ends, drops and starts made from inside a handler.
@Suite("Event loop")
struct EventLoopTests {
  /// A lane whose pipe is dropped (a grandchild outside its group holds it)
  /// ends in the loop's turn; a child started from that end is watched in the
  /// same loop, not left until some later timer wakes it.
  @Test func aChildStartedWhenADroppedPipeEndsALaneIsWatched() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.url.appendingPathComponent("ready").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // The grandchild leaves the group, says so (with its pid) through the fifo, and keeps the pipe.
    let command = "setsid sh -c 'echo $$ > ready; exec sleep 30' & read pid < ready; echo $pid"
    let loop = EventLoop()
    var printed: [UInt8] = []
    var secondEnd: ChildRun.End?
    let limits = ChildRun.Limits(timeout: 120, killGrace: 1, drainGrace: 0.2)
    let started = Date()
    loop.start(.shell(command, directory: folder.url.path, environment: ["PATH": "/usr/bin:/bin"]), limits: limits,
               onBytes: { printed.append(contentsOf: $0) },
               onEnd: { _ in
                 loop.start(.shell("exit 4", directory: "/", environment: [:]), limits: limits, onBytes: { _ in },
                            onEnd: { secondEnd = $0 })
               })
    loop.run(until: { secondEnd != nil || Date().timeIntervalSince(started) > 30 })
    if let pid = pid_t(String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) {
      kill(pid, SIGKILL)
    }
    #expect(secondEnd?.exitCode == 4)
  }

  /// Output and the end of two children at once, each to its own handlers, on the calling thread.
  @Test func outputGoesToItsOwnChild() {
    let loop = EventLoop()
    var out: [Int: String] = [:]
    var ended = 0
    for n in 1...2 {
      loop.start(.shell("echo child\(n)", directory: "/", environment: [:]), limits: .init(timeout: 30),
                 onBytes: { out[n, default: ""] += String(decoding: $0, as: UTF8.self) },
                 onEnd: { end in
                   #expect(end.exitCode == 0)
                   ended += 1
                 })
    }
    loop.run(until: { ended == 2 })
    #expect(out == [1: "child1\n", 2: "child2\n"])
  }

  /// `beforeWait` runs each turn before the loop blocks, after what the turn
  /// started: a child started from another's end is already running when the
  /// caller hands its batch on (issue 42, item 6: the observer's wake).
  @Test func beforeWaitRunsOnceTheTurnHasStartedWhatItCould() {
    let loop = EventLoop()
    var log: [String] = []
    var done = false
    loop.beforeWait = { log.append("wait") }
    loop.start(.shell("true", directory: "/", environment: [:]), limits: .init(timeout: 30), onBytes: { _ in },
               onEnd: { _ in
                 log.append("first ended")
                 loop.start(.shell("true", directory: "/", environment: [:]), limits: .init(timeout: 30),
                            onBytes: { _ in }, onEnd: { _ in log.append("second ended"); done = true })
                 log.append("second started")
               })
    loop.run(until: { done })
    #expect(log.first == "wait")
    let ended = log.firstIndex(of: "first ended") ?? 0
    #expect(Array(log[ended...].prefix(3)) == ["first ended", "second started", "wait"])
    #expect(log.last == "second ended")
  }

  /// Within `beforeWaitInterval` of the last call, `beforeWait` waits for a
  /// deadline at the interval's end: a run of quick children wakes the
  /// observer's thread a few times, not once a child, and nothing posted
  /// waits longer than the interval.
  @Test func beforeWaitIsCalledAtMostOncePerInterval() {
    let loop = EventLoop()
    var calls: [Date] = []
    var ended = 0
    loop.beforeWait = { calls.append(Date()) }
    loop.beforeWaitInterval = 0.5
    func startNext() {
      loop.start(.shell("true", directory: "/", environment: [:]), limits: .init(timeout: 30), onBytes: { _ in },
                 onEnd: { _ in ended += 1; if ended < 20 { startNext() } })
    }
    let start = Date()
    startNext()
    loop.run(until: { ended == 20 })
    let quick = Date()
    let allowed = 2 + Int(quick.timeIntervalSince(start) / loop.beforeWaitInterval)
    #expect(calls.count <= allowed, "\(calls.count) calls for 20 children in \(quick.timeIntervalSince(start))s")
    // The next call comes within the interval (in the turn after the deadline
    // that a skipped call armed; the call wakes the loop, so the run returns).
    let before = calls.count, poster = loop.poster
    loop.beforeWait = { calls.append(Date()); poster.post(0) }
    let later = loop.after(5) {}
    loop.run(until: { calls.count > before || Date().timeIntervalSince(quick) > 4 })
    loop.cancel(later)
    #expect(calls.count == before + 1)
    #expect((calls.last ?? .distantFuture).timeIntervalSince(quick) < 2)
  }

  /// Once the loop is idle (a long lane runs, nothing else happens), the
  /// deadline that made a skipped `beforeWait` does not arm another: the loop
  /// blocks until the lane ends, not waking every interval for the rest of
  /// the run (issue 42, item 6: two quick events re-armed it for ever).
  @Test func anIdleLoopStopsWakingForBeforeWait() {
    let poller = FakePoller(delays: ["quick": 0.005, "long": 60])
    let loop = EventLoop(poller: poller, clock: poller.clock)
    var calls = 0
    var ended = 0
    loop.beforeWait = { calls += 1 }
    loop.beforeWaitInterval = 0.02
    for name in ["quick", "long"] {
      loop.start(.shell(name, directory: "/", environment: [:]), limits: .init(timeout: 120), onBytes: { _ in },
                 onEnd: { _ in ended += 1 })
    }
    loop.run(until: { ended == 2 })
    #expect(poller.waits <= 5, "\(poller.waits) waits, \(calls) beforeWait calls for 60 s of one idle lane")
    #expect(calls >= 2, "the quick lane's end was never handed on")
  }

  /// A poller never hands out a child's number twice, so a late drop or signal
  /// for a child that ended cannot reach a newer one.
  @Test func childNumbersAreNeverReused() throws {
    let poller = SystemPoller()
    var seen = Set<ChildID>()
    let loop = EventLoop(poller: poller)
    var ended = 0
    for _ in 0..<20 {
      guard let id = loop.start(.shell("true", directory: "/", environment: [:]), limits: .init(timeout: 30),
                                onBytes: { _ in }, onEnd: { _ in ended += 1 }) else { continue }
      #expect(seen.insert(id).inserted)
      let before = ended
      loop.run(until: { ended > before })
    }
    #expect(seen.count == 20)
  }

  /// A message posted from another thread wakes the loop's wait and is handled on the loop's thread.
  @Test func postedMessagesWakeTheWait() {
    let loop = EventLoop()
    var received: [String] = []
    loop.onMessage = { received.append($0 as? String ?? "?") }
    let poster = loop.poster
    Thread.detachNewThread { poster.post("from another thread") }
    loop.run(until: { !received.isEmpty })
    #expect(received == ["from another thread"])
  }

  /// Messages travel to the loop as values through the poller's wake-up pipe
  /// (issue 54, item 6: no locked mailbox): from several threads at once, more
  /// than the pipe holds (a poster waits for room rather than drop one), none
  /// lost, each thread's in the order it posted them, a dropped loop's
  /// leftovers released.
  @Test func postedMessagesArriveWholeAndInOrder() {
    let loop = EventLoop()
    var received: [Int: [Int]] = [:]
    var count = 0
    loop.onMessage = { message in
      guard let (thread, number) = message as? (Int, Int) else { return }
      received[thread, default: []].append(number)
      count += 1
    }
    let poster = loop.poster, threads = 4, each = 5_000
    for thread in 0..<threads {
      Thread.detachNewThread { for number in 0..<each { poster.post((thread, number)) } }
    }
    loop.run(until: { count == threads * each })
    for thread in 0..<threads { #expect(received[thread] == Array(0..<each)) }
    final class Kept: Sendable {}
    weak var kept: Kept?
    do {
      let loop = EventLoop()
      let message = Kept()
      kept = message
      loop.poster.post(message)
    }
    #expect(kept == nil, "a message left in a dropped loop's pipe was never released")
  }

  /// With no descriptor left for the wake-up pipe, messages posted from other
  /// threads are not dropped: they wait where the loop looks every 20 ms.
  @Test func withNoWakeUpPipeNoMessageIsLost() {
    let loop = EventLoop(poller: SystemPoller(wakeUpPipe: false))
    var count = 0
    loop.onMessage = { message in if message is Int { count += 1 } }
    let poster = loop.poster
    for thread in 0..<4 {
      Thread.detachNewThread { for number in 0..<100 { poster.post(thread * 100 + number) } }
    }
    loop.run(until: { count == 400 })
    #expect(count == 400)
  }

  /// A piece that runs on the loop's own thread (no worker thread could be
  /// made) posts to that loop; with more messages than the wake-up pipe holds,
  /// a post that waited for room would wait for itself, the loop's only
  /// reader. Nothing is dropped, and one poster's messages come in its order.
  @Test func postsFromTheLoopsOwnThreadNeverWaitForRoom() {
    let count = 40_000  // a 64 KiB pipe holds 8,192 pointers
    let finished = DispatchSemaphore(value: 0)
    let received = Locked<[Int]>([])
    Thread.detachNewThread {
      let loop = EventLoop(poller: SystemPoller())
      var seen: [Int] = []
      loop.onMessage = { message in if let number = message as? Int { seen.append(number) } }
      for number in 0..<count { loop.poster.post(number) }
      loop.run(until: { seen.count == count })
      received.withLock { $0 = seen }
      finished.signal()
    }
    // Not a speed limit: the posts take milliseconds; a post that waits for room waits forever.
    let ended = finished.wait(timeout: .now() + 60) == .success
    #expect(ended, "the loop's own thread waited for room in its own wake-up pipe")
    guard ended else { return }
    #expect(received.withLock { $0 } == Array(0..<count))
  }

  /// While some messages wait outside a full pipe, another thread's posts
  /// still come, each thread's in its order.
  @Test func eachPostersOrderIsKeptPastAFullPipe() {
    let loop = EventLoop(poller: SystemPoller())
    var seen: [Int: [Int]] = [:]
    var total = 0
    loop.onMessage = { message in
      guard let (thread, number) = message as? (Int, Int) else { return }
      seen[thread, default: []].append(number)
      total += 1
    }
    let poster = loop.poster
    for thread in 0...3 {
      let count = thread == 0 ? 20_000 : 5_000
      Thread.detachNewThread { for number in 0..<count { poster.post((thread, number)) } }
    }
    loop.run(until: { total == 35_000 })
    #expect(seen[0] == Array(0..<20_000))
    for thread in 1...3 { #expect(seen[thread] == Array(0..<5_000), "thread \(thread)") }
  }
}
