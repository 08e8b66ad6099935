@testable import DuetCache
@testable import DuetSupport
import Foundation

/// A Bazel HTTP remote cache held in memory, for unit tests of what travels
/// through one (`SharedHistory`): GET, PUT and HEAD on `ac/` and `cas/`, with
/// the requests counted. The end-to-end tests use the real nginx.
final class MemoryCacheServer: RemoteTransport, @unchecked Sendable {
  private let lock = NSLock()
  private var objects: [String: [UInt8]] = [:]
  private(set) var puts = 0

  func get(_ requests: [RemoteGet]) -> [RemoteResult] {
    requests.map { request in
      guard let bytes = object(request.key) else { return .missing }
      _ = FileManager.default.createFile(atPath: request.destination, contents: Data(bytes))
      return .done(bytes: bytes.count)
    }
  }

  func put(_ requests: [RemotePut]) -> [RemoteResult] {
    requests.map { request in
      guard let data = FileManager.default.contents(atPath: request.source) else { return .failed("unreadable \(request.source)") }
      lock.withLock {
        objects[request.key.description] = [UInt8](data)
        puts += 1
      }
      return .done(bytes: data.count)
    }
  }

  func head(_ keys: [RemoteKey]) -> [RemoteResult] {
    keys.map { key in object(key).map { .done(bytes: $0.count) } ?? .missing }
  }

  func object(_ key: RemoteKey) -> [UInt8]? { lock.withLock { objects[key.description] } }

  /// Every object under `namespace`'s keys.
  func keys(_ namespace: RemoteNamespace) -> [String] {
    lock.withLock { objects.keys.filter { $0.hasPrefix(namespace.rawValue + "/") }.sorted() }
  }

  /// Replaces an object's bytes (a forger with write access).
  func store(_ bytes: [UInt8], at key: RemoteKey) { lock.withLock { objects[key.description] = bytes } }
}
