#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work on a thread of its own whose result comes back as the thread's return
/// value, taken when the thread is joined: the value is handed over, never
/// shared, so nothing guards it with a lock (`pthread_join` orders the
/// thread's writes before the joiner's reads). Made with `pthread_create`, not
/// Dispatch: where the machine has no thread to give (issue 52) the work runs
/// on the caller's thread at once, and `join` hands back what it made.
package final class JoinedThread<Value: Sendable> {
  private enum State {
    case running(pthread_t)
    case done(Value)
  }

  /// The result, boxed for the trip through `pthread_join`.
  private final class Result {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  private var state: State

  /// Starts `work` on a new thread, or runs it here when none can be made.
  package init(_ work: @escaping @Sendable () -> Value) {
    let box = Unmanaged.passRetained(JoinedWork { Unmanaged.passRetained(Result(work())).toOpaque() }).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    if pthread_create(&thread, nil, { JoinedWork.enter($0) }, box) == 0 {
      state = .running(thread)
      return
    }
    #else
    var thread: pthread_t?
    if pthread_create(&thread, nil, { JoinedWork.enter($0) }, box) == 0, let thread {
      state = .running(thread)
      return
    }
    #endif
    Unmanaged<JoinedWork>.fromOpaque(box).release()
    state = .done(work())
  }

  /// Waits for the thread to end; its result. Call on the thread that made it.
  package func join() -> Value {
    switch state {
    case .running(let thread):
      var raw: UnsafeMutableRawPointer?
      pthread_join(thread, &raw)
      // The entry always returns the boxed result of the work it was given.
      let value = Unmanaged<Result>.fromOpaque(raw!).takeRetainedValue().value
      state = .done(value)
      return value
    case .done(let value):
      return value
    }
  }

  deinit {
    // Never left running unjoined: its result is taken and dropped.
    if case .running = state { _ = join() }
  }
}

/// What a `JoinedThread` runs, its result already boxed: not generic, as a
/// C function pointer carries no generic context.
private final class JoinedWork {
  let run: () -> UnsafeMutableRawPointer
  init(_ run: @escaping () -> UnsafeMutableRawPointer) { self.run = run }

  static func enter(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    return Unmanaged<JoinedWork>.fromOpaque(raw).takeRetainedValue().run()
  }
}
