import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// One signal policy for every command: SIGINT, SIGTERM, SIGHUP and SIGQUIT
/// never kill duet outright. While a verify runs they interrupt it (every
/// lane's group is stopped, what finished is reported, exit 130). Any other
/// command stops the children it started (SIGTERM to each group, SIGKILL
/// after the grace period), then exits 128 + the signal. SIGQUIT behaves as
/// SIGTERM, without a core dump.
enum SignalPolicy {
  static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  private struct State: Sendable {
    var handler: (@Sendable (Int32) -> Void)?
    /// The first signal that ended a command other than verify.
    var fatal: Int32?
  }

  private static let state = Locked(State())
  /// The signal sources, kept alive for the process's life.
  private static let sources = Locked<[any DispatchSourceSignal]>([])

  /// Takes over the signals; call once, before any child starts.
  static func install() {
    StopLatch.prepare()
    for number in handled {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { received(number) }
      source.resume()
      sources.withLock { $0.append(source) }
    }
  }

  /// Runs `body` with `handler` taking the signals (verify's interrupt). A call
  /// that does not own the process (in-process) leaves the signals alone.
  static func during<T>(ownsProcess: Bool = true, _ handler: @escaping @Sendable (Int32) -> Void, _ body: () throws -> T) rethrows -> T {
    guard ownsProcess else { return try body() }
    state.withLock { $0.handler = handler }
    defer { state.withLock { $0.handler = nil } }
    return try body()
  }

  private static func received(_ number: Int32) {
    let handler = state.withLock { state -> (@Sendable (Int32) -> Void)? in
      if state.handler == nil && state.fatal == nil { state.fatal = number }
      return state.handler
    }
    // Said before the groups are signalled: once a child ends, the command may
    // finish and exit on its own thread, and a line written after would be lost.
    let running = StopLatch.childrenRunning
    if handler == nil && running > 0 {
      FileHandle.standardError.write(Data("duet: \(name(number)): stopping \(running) child process group(s)\n".utf8))
    }
    // Every event loop (a lane's, a git query's, a mock generator's) stops its children.
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
  static func exitCode(_ code: Int32) -> Int32 {
    state.withLock { $0.fatal }.map { 128 + $0 } ?? code
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
