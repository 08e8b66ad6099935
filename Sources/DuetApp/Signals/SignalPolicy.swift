import Foundation
import DuetProcess
import DuetSupport

/// One signal policy for every command: SIGINT, SIGTERM, SIGHUP and SIGQUIT
/// never kill duet outright. Each trips the stop latch, so every event loop (a
/// lane's, a git query's, a mock generator's) stops its children. While a
/// verify runs that is all: its loop interrupts the run (every lane's group is
/// stopped, what finished is reported, exit 130). Any other command waits for
/// its children to stop, then exits 128 + the signal. SIGQUIT behaves as
/// SIGTERM, without a core dump.
///
/// The signals are received on a thread of their own, made at start-up
/// (`SignalThread`): on a machine out of threads (`ulimit -u`), Dispatch cannot
/// start a worker to handle them, and duet, blocked in Dispatch's retry, would
/// hear neither SIGINT nor SIGTERM. For the same reason a verify or watch that
/// has not ended `lastResort` seconds after the signal is ended from that
/// thread: every live lane group killed, exit 128 + the signal.
///
/// Owned by the invocation that owns the process (the binary's `main`); an
/// in-process call has none and leaves the signals alone.
final class SignalPolicy: Sendable {
  static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  private struct State: Sendable {
    /// What redraws the live status line when the terminal is resized.
    var resized: (@Sendable () -> Void)?
  }

  private let state = Locked(State())
  /// The command's own stop (verify's interrupt, watch's stop): a signal while
  /// one listens is that command's to handle.
  private let commandStop = StopRequest()
  /// Seconds a verify or watch has, after a signal, to stop its lanes and end
  /// (a lane's SIGTERM grace is 5 s, then its output is drained for 2 s).
  static let lastResort: Double = 20
  /// Seconds for a run's event loop to hear a signal before duet ends without it.
  static let heardWithin: Double = 2

  private init() {}

  /// Takes over the signals; call once, first thing, before any child or
  /// other thread starts. A process that cannot make even this one thread
  /// cannot run lanes either: it says so and exits 3, the machine's error.
  static func install() -> SignalPolicy {
    let policy = SignalPolicy()
    StopLatch.prepare()
    // The signal thread is handed the policy itself, kept for the process's life.
    let error = SignalThread.start(handled, context: Unmanaged.passRetained(policy).toOpaque()) { number, context in
      guard let context else { return }
      let policy = Unmanaged<SignalPolicy>.fromOpaque(context).takeUnretainedValue()
      if number == SIGWINCH { policy.resize() } else { policy.received(number) }
    }
    if error != 0 {
      FileHandle.standardError.write(Data("duet: error: cannot start a thread: \(String(cString: strerror(error))) (is the process limit, ulimit -u, reached?)\n".utf8))
      // The machine ran out, not the command line: duet's `error`, exit 3 (issue 52).
      exit(3)
    }
    return policy
  }

  /// Runs `body` with `handler` taking the signals (verify's interrupt, watch's stop).
  func during<T>(_ handler: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
    try commandStop.listening(handler, during: body)
  }

  /// A resized terminal (SIGWINCH, on the signal thread) calls `redraw` at
  /// once: the status line is drawn again at the new width, not left wrapped
  /// over stale rows until the next tick (issue 52, item 10). The newest
  /// redraw takes it over; a finished status line's does nothing (its clock
  /// has stopped).
  func redrawOnResize(_ redraw: @escaping @Sendable () -> Void) {
    state.withLock { $0.resized = redraw }
  }

  private func resize() {
    state.withLock { $0.resized }?()
  }

  private func received(_ number: Int32) {
    // The command's own stop hears it (verify, watch, deflake), or none listens.
    let handled = commandStop.request()
    if !handled { SignalThread.noteUnhandled(number) }
    // Said before the groups are signalled: once a child ends, the command may
    // finish and exit on its own thread, and a line written after would be lost.
    let running = StopLatch.childrenRunning
    if !handled && running > 0 {
      FileHandle.standardError.write(Data("duet: \(SignalPolicy.name(number)): stopping \(running) child process group(s)\n".utf8))
    }
    StopLatch.trip(number)
    if handled {
      endIfStillRunning(after: number)
      return
    }
    if running > 0 {
      let deadline = Date().addingTimeInterval(7)
      while StopLatch.childrenRunning > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }
    // _exit, not exit: this is the signal thread, and the command's own thread
    // is still running; exit's handlers and destructors run beside it, which
    // crashed (SIGSEGV) when a signal came as duet was starting. Everything duet
    // prints is written unbuffered, so nothing is lost.
    _exit(128 + number)
  }

  /// The last resort, on the signal thread. An event loop that hears the
  /// signal says so (`StopLatch.heard`): the command is alive and stopping its
  /// lanes, and has `lastResort` seconds to end. One that does not hear it
  /// within `heardWithin` waits on something else (a thread or descriptor the
  /// machine cannot give, a lock, a long hash before any lane ran): every live
  /// lane group is killed and duet exits then, as ninja and Bazel end at once
  /// (issue 52, item 5).
  private func endIfStillRunning(after number: Int32) {
    let heardBy = Date().addingTimeInterval(SignalPolicy.heardWithin)
    while !StopLatch.wasHeard && Date() < heardBy { Thread.sleep(forTimeInterval: 0.02) }
    let heard = StopLatch.wasHeard
    if heard { Thread.sleep(forTimeInterval: SignalPolicy.lastResort - SignalPolicy.heardWithin) }
    let groups = SignalThread.signalLiveGroups(SIGKILL)
    let why = heard ? "not ended \(Int(SignalPolicy.lastResort)) s after the signal (out of threads?)"
      : "its run did not take the signal within \(Int(SignalPolicy.heardWithin)) s (waiting on the machine, a lock or a server)"
    FileHandle.standardError.write(Data("duet: \(SignalPolicy.name(number)): \(why); killed \(groups) lane process group(s), exiting\n".utf8))
    _exit(128 + number)
  }

  /// The exit code of a command that returned `code`: 128 + the signal when a
  /// signal stopped it (its children's failure is the signal's doing).
  func exitCode(_ code: Int32) -> Int32 {
    SignalThread.firstUnhandled.map { 128 + $0 } ?? code
  }

  static func name(_ number: Int32) -> String {
    switch number {
    case SIGINT: return "SIGINT"
    case SIGTERM: return "SIGTERM"
    case SIGHUP: return "SIGHUP"
    case SIGQUIT: return "SIGQUIT"
    default: return "signal \(number)"
    }
  }
}
