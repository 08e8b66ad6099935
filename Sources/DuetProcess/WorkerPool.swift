import DuetSupport
import Foundation

/// Threads that stay for the next piece of work: the run loop hands every
/// attempt's start and end work to a worker, and a thread made and ended per
/// attempt cost a 1,000-lane run about 80 µs a lane (tools/bench-latency: 1.09×
/// ninja became 1.31×). A piece goes to a sleeping thread when one is free for
/// it (each piece wakes one), else to a new one (`DetachedThread`), so a long
/// piece (a big output being stored) does not hold up the next; past `limit`
/// threads, pieces wait for one to be free (the threads count against the same
/// `ulimit -u` as the lanes). With no thread to be had at all, the caller runs
/// its own piece, late but never lost (DESIGN §14).
package final class WorkerPool: Sendable {
  /// The process's pool: the threads outlive one run, as a second run in the
  /// same process (tests, `deflake`) reuses them.
  package static let shared = WorkerPool()

  /// A piece, known by identity, so a caller that could not make a thread
  /// takes back its own piece and no other.
  private final class Piece {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
  }

  private struct State {
    var queue: [Piece] = []
    /// Threads asleep, waiting for a piece.
    var sleeping = 0
    /// Threads made (and not given up on).
    var made = 0
  }

  private let state = Locked(State())
  /// The most threads the pool makes: enough for the pieces of a run at once
  /// (a restore hands one per lane), few enough for a machine's process limit.
  let limit: Int

  init(limit: Int = max(8, 2 * ProcessInfo.processInfo.activeProcessorCount)) {
    self.limit = max(1, limit)
  }

  /// How many threads the pool has made, and how many sleep (for tests).
  var threads: (made: Int, sleeping: Int) { state.withLock { ($0.made, $0.sleeping) } }

  /// Runs `work` on a sleeping thread, a new one, or here when none can be made.
  package func run(_ work: @escaping () -> Void) {
    let piece = Piece(work)
    let needsThread = state.withLock { state -> Bool in
      state.queue.append(piece)
      // Every queued piece has a sleeper of its own: one of them takes it.
      guard state.queue.count > state.sleeping, state.made < limit else { return false }
      state.made += 1
      return true
    }
    guard needsThread else { return state.signal() }
    guard DetachedThread.start({ [self] in serve() }) != 0 else { return }
    // No thread: this piece runs here, unless a thread took it meanwhile.
    let mine = state.withLock { state -> Bool in
      state.made -= 1
      guard let at = state.queue.firstIndex(where: { $0 === piece }) else { return false }
      state.queue.remove(at: at)
      return true
    }
    if mine { work() }
  }

  /// A worker's life: take a piece, run it, sleep until the next.
  private func serve() {
    while true {
      let piece = state.wait(countedIn: \.sleeping, for: { !$0.queue.isEmpty }) { $0.queue.removeFirst() }
      piece.run()
    }
  }
}
