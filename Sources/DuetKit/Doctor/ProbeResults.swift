import Foundation

/// The probes' answers, written from several threads.
final class ProbeResults: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Int: ToolProbe.Version] = [:]
  func set(_ index: Int, _ version: ToolProbe.Version) {
    lock.lock()
    results[index] = version
    lock.unlock()
  }
  func all(count: Int) -> [ToolProbe.Version] {
    lock.lock()
    defer { lock.unlock() }
    return (0..<count).compactMap { results[$0] }
  }
}
