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
/// Owned by the invocation that owns the process (the binary's `main`); an
/// in-process call has none and leaves the signals alone.
public final class SignalPolicy: Sendable {
  public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  private struct State: Sendable {
    var handler: (@Sendable (Int32) -> Void)?
    /// The first signal that ended a command other than verify.
    var fatal: Int32?
  }

  private let state = Locked(State())
  /// The signal sources, kept as long as the policy.
  private let sources: Locked<[any DispatchSourceSignal]> = Locked([])

  private init() {}

  /// Takes over the signals; call once, before any child starts.
  public static func install() -> SignalPolicy {
    let policy = SignalPolicy()
    StopLatch.prepare()
    for number in handled {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [unowned policy] in policy.received(number) }
      source.resume()
      policy.sources.withLock { $0.append(source) }
    }
    return policy
  }

  /// Runs `body` with `handler` taking the signals (verify's interrupt, watch's stop).
  public func during<T>(_ handler: @escaping @Sendable (Int32) -> Void, _ body: () throws -> T) rethrows -> T {
    state.withLock { $0.handler = handler }
    defer { state.withLock { $0.handler = nil } }
    return try body()
  }

  private func received(_ number: Int32) {
    let handler = state.withLock { state -> (@Sendable (Int32) -> Void)? in
      if state.handler == nil && state.fatal == nil { state.fatal = number }
      return state.handler
    }
    // Said before the groups are signalled: once a child ends, the command may
    // finish and exit on its own thread, and a line written after would be lost.
    let running = StopLatch.childrenRunning
    if handler == nil && running > 0 {
      FileHandle.standardError.write(Data("duet: \(SignalPolicy.name(number)): stopping \(running) child process group(s)\n".utf8))
    }
    StopLatch.trip(number)
    if let handler {
      handler(number)
      return
    }
    if running > 0 {
      let deadline = Date().addingTimeInterval(7)
      while StopLatch.childrenRunning > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }
    exit(128 + number)
  }

  /// The exit code of a command that returned `code`: 128 + the signal when a
  /// signal stopped it (its children's failure is the signal's doing).
  public func exitCode(_ code: Int32) -> Int32 {
    state.withLock { $0.fatal }.map { 128 + $0 } ?? code
  }

  public static func name(_ number: Int32) -> String {
    switch number {
    case SIGINT: return "SIGINT"
    case SIGTERM: return "SIGTERM"
    case SIGHUP: return "SIGHUP"
    case SIGQUIT: return "SIGQUIT"
    default: return "signal \(number)"
    }
  }
}
