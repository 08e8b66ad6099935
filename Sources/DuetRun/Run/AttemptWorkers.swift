import DuetProcess

/// Where the run loop sends the file work of an attempt's end (storing its
/// outputs, reading its reports, walking its inputs again): ninja's `Builder`
/// only updates state when a command finishes, and so does `LaneLoop`; the
/// work runs here and posts its result back, so no deadline waits for it.
///
/// Each piece goes to a thread of the process's `WorkerPool` (one that waits
/// idle, or a new `DetachedThread`: never a trap when the machine has none to
/// give); with no thread to be had it runs on the caller's, late but never
/// lost. Tests hand in workers they hold back.
struct AttemptWorkers {
  var start: (@escaping () -> Void) -> Void
  /// Where a built-in runs: for the lane's whole length, and past its timeout
  /// when it never returns, so never on the pool, whose few threads it could
  /// hold until every other attempt's work waits behind it. Nil: `start`.
  var startLong: ((@escaping () -> Void) -> Void)?

  init(start: @escaping (@escaping () -> Void) -> Void, startLong: ((@escaping () -> Void) -> Void)? = nil) {
    self.start = start
    self.startLong = startLong
  }

  /// The process's worker threads, or the caller's thread when none can be made.
  static var threads: AttemptWorkers { .pool(.shared) }

  /// The threads of `pool`; a built-in gets a thread of its own, or, when
  /// none can be made, one of the pool's (which runs it on the caller's only
  /// when it has none either): the caller is the run loop, and a built-in
  /// there would hold every other lane's pipes, deadlines and Ctrl-C.
  /// `startThread` is `DetachedThread.start`, or a machine with no thread (tests).
  static func pool(_ pool: WorkerPool, startThread: @escaping (@escaping () -> Void) -> Int32 = DetachedThread.start) -> AttemptWorkers {
    AttemptWorkers(start: { work in pool.run(work) },
                   startLong: { work in if startThread(work) != 0 { pool.run(work) } })
  }
}

/// Work an attempt needs before it starts, beyond the loop's own (a lane
/// whose need ran has its inputs walked again: they may be that need's
/// outputs). `run` is done on a worker and touches nothing the loop owns; what
/// it returns is run on the loop's thread as the attempt starts.
struct StartWork {
  var run: () -> (() -> Void)

}
