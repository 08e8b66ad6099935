import Foundation

/// The two namespaces of the Bazel HTTP remote-cache protocol:
/// `<base>/ac/<sha256>` holds action entries (an action key to its result),
/// `<base>/cas/<sha256>` holds blobs named by the SHA-256 of their bytes.
enum RemoteNamespace: String, Sendable, Hashable {
  case ac, cas
}

/// One object on the remote cache: `ac/<hex>` or `cas/<hex>`.
package struct RemoteKey: Sendable, Hashable, CustomStringConvertible {
  var namespace: RemoteNamespace
  /// 64 lowercase hex digits.
  var hash: String

  init(_ namespace: RemoteNamespace, _ hash: String) {
    self.namespace = namespace
    self.hash = hash
  }

  /// `ac/<hex>`, the path below the base URL.
  package var description: String { "\(namespace.rawValue)/\(hash)" }
}

/// A download: the object to GET and the file its bytes go to. The transport
/// writes `destination` (creating or truncating it) and stops past `maxBytes`.
package struct RemoteGet: Sendable {
  var key: RemoteKey
  var destination: String
  var maxBytes: Int
}

/// An upload: the object to PUT and the file that holds its bytes.
package struct RemotePut: Sendable {
  var key: RemoteKey
  var source: String
  /// `application/octet-stream` for blobs, `application/octet-stream` (binary
  /// protobuf) for action entries too.
  var contentType: String = "application/octet-stream"
}

/// How one request ended. `failed` carries a sentence for a warning, which
/// never holds a credential (the URL in it is the redacted one).
package enum RemoteResult: Sendable, Equatable {
  /// GET: the bytes are in the destination (their count); PUT: stored; HEAD:
  /// present, with its `Content-Length` (-1 when the server gave none).
  case done(bytes: Int)
  /// 404: not on the server (GET, HEAD).
  case missing
  /// Anything else: refused connection, timeout, 4xx/5xx other than 404, too large.
  case failed(String)
}

/// The wire under the remote cache: many requests at once, each answered.
/// `HTTPTransport` speaks HTTP/1.1 through libcurl; unit tests hand the store a
/// scripted one. Every call returns one result per request, in request order,
/// and never throws: a server that fails is a warning for the caller, never a
/// verdict.
package protocol RemoteTransport: Sendable {
  func get(_ requests: [RemoteGet]) -> [RemoteResult]
  /// `get`, telling `each` (on the calling thread) of every request as it
  /// ends, with the digest of the bytes written when the transport hashed them
  /// on the way: a restore starts on a lane's outputs while others download.
  func get(_ requests: [RemoteGet], each: (_ offset: Int, _ result: RemoteResult, _ written: BlobDigest?) -> Void) -> [RemoteResult]
  func put(_ requests: [RemotePut]) -> [RemoteResult]
  func head(_ keys: [RemoteKey]) -> [RemoteResult]
  /// GETs objects of at most `maxBytes` into memory (action entries, read and
  /// thrown away): no file is made, so none is left behind, and none is made
  /// and removed in the system's temporary folder per lane.
  func read(_ keys: [RemoteKey], maxBytes: Int) -> [(result: RemoteResult, bytes: [UInt8])]
  /// Ends the call under way and every later one, from any thread (Ctrl-C).
  func cancel()
}

extension RemoteTransport {
  /// A transport whose calls never wait has nothing to end.
  func cancel() {}

  /// Every request told of once all have ended, with no digest: a transport
  /// that cannot tell of each as it ends (the scripted ones of unit tests).
  func get(_ requests: [RemoteGet], each: (_ offset: Int, _ result: RemoteResult, _ written: BlobDigest?) -> Void) -> [RemoteResult] {
    let results = get(requests)
    for (offset, result) in results.enumerated() { each(offset, result, nil) }
    return results
  }

  /// `read` through `get` and scratch files, for a transport with no other way.
  func read(_ keys: [RemoteKey], maxBytes: Int) -> [(result: RemoteResult, bytes: [UInt8])] {
    var paths: [String] = []
    defer { paths.forEach { unlink($0) } }
    var requests: [RemoteGet] = []
    for key in keys {
      guard let (fd, path) = try? ContentStore.scratchFile() else { return keys.map { _ in (.failed("cannot make a temporary file"), []) } }
      close(fd)
      paths.append(path)
      requests.append(RemoteGet(key: key, destination: path, maxBytes: maxBytes))
    }
    return zip(get(requests), paths).map { result, path in
      guard case .done = result else { return (result, []) }
      return (result, FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? [])
    }
  }
}
