import Foundation

extension Array where Element: Sendable {
  /// `transform` of every element, in the elements' order, on up to `width`
  /// threads at once (one per core by default): element `i` goes to thread
  /// `i % width`, so elements sorted largest first spread the large ones over
  /// every thread. Each thread hands its results back when joined
  /// (`JoinedThread`): nothing is shared, so nothing is locked; and where the
  /// machine has no thread to give, the work is done here (issue 52), where
  /// `DispatchQueue.concurrentPerform` would trap.
  package func parallelMap<Mapped: Sendable>(width: Int = ProcessInfo.processInfo.activeProcessorCount,
                                             _ transform: @escaping @Sendable (Element) -> Mapped) -> [Mapped] {
    let threads = Swift.max(1, Swift.min(width, count))
    guard threads > 1 else { return map(transform) }
    let items = self
    let stripes = (0..<threads).map { stripe in
      JoinedThread { stride(from: stripe, to: items.count, by: threads).map { transform(items[$0]) } }
    }
    let results = stripes.map { $0.join() }
    return indices.map { results[$0 % threads][$0 / threads] }
  }
}
