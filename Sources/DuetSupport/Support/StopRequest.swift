/// A request to stop (Ctrl-C), made from any thread (the signal's), possibly
/// before whoever it stops exists: a verify's run, a watch, a deflake's runs.
/// Whoever listens hears every request made while it listens, and one made
/// before it started listening at once. One type for what verify, watch and
/// deflake each kept by hand (a flag, the callbacks to run, each behind its
/// own lock).
package final class StopRequest: Sendable {
  private struct State {
    var requested = false
    var listeners: [(key: Int, hear: @Sendable () -> Void)] = []
    var nextKey = 0
  }

  private let state = Locked(State())

  package init() {}

  /// Whether a stop was requested.
  package var isRequested: Bool { state.withLock { $0.requested } }

  /// Requests the stop: every listener hears it now, on this thread, in the
  /// order they began listening. Whether anyone heard it.
  @discardableResult
  package func request() -> Bool {
    let listeners = state.withLock { state in
      state.requested = true
      return state.listeners
    }
    listeners.forEach { $0.hear() }
    return !listeners.isEmpty
  }

  /// `hear` runs at every request from now on (at once if one was made already).
  package func listen(_ hear: @escaping @Sendable () -> Void) {
    _ = add(hear)
  }

  /// `hear` runs at every request made while `body` runs (at once if one was made already).
  package func listening<T>(_ hear: @escaping @Sendable () -> Void, during body: () throws -> T) rethrows -> T {
    let key = add(hear)
    defer { state.withLock { $0.listeners.removeAll { $0.key == key } } }
    return try body()
  }

  private func add(_ hear: @escaping @Sendable () -> Void) -> Int {
    let (key, requested) = state.withLock { state in
      state.nextKey += 1
      state.listeners.append((state.nextKey, hear))
      return (state.nextKey, state.requested)
    }
    if requested { hear() }
    return key
  }
}
