import CCurl
import DuetSupport
import Foundation

/// The remote cache over HTTP/1.1 (or HTTP/2 where TLS offers it) through
/// libcurl's multi interface: each call runs its requests on the calling
/// thread, at most `config.parallel` at once, on easy handles and a connection
/// cache that outlive the call, so a build's many small requests reuse a few
/// kept-alive connections instead of one handshake each. One thread waiting in
/// `poll` costs less than a pool of threads each blocked on a socket, and
/// libcurl's callbacks then never run concurrently.
///
/// Every result is a value, never a throw; every `failed` sentence names the
/// redacted base URL, the request and the reason, and is scrubbed of the
/// credentials besides (libcurl never sees them in a URL, so this is the second
/// guard, not the first).
package final class HTTPTransport: RemoteTransport {
  let config: RemoteCacheConfig
  /// Sessions no call is using: a call takes one (or makes one) and gives it back.
  private let idle = Locked<[CurlSession]>([])
  /// Set by `cancel()` (Ctrl-C, from another thread): every call ends at once.
  private let cancelled = Locked(false)
  /// How long this transport's calls have waited on a server that moved
  /// (almost) nothing, over the whole run.
  private let stall: StallClock

  /// libcurl's process-wide setup, once, before the first handle (a static
  /// `let` is initialised once, thread-safely).
  private static let globalInit: CURLcode = duet_curl_global_init()

  package init(config: RemoteCacheConfig) {
    self.config = config
    stall = StallClock(budget: config.stallBudget, rate: config.stallRate)
  }

  /// Ends the call under way and every later one (each request answered
  /// `failed`): Ctrl-C during a lookup must not wait for the server.
  package func cancel() {
    cancelled.withLock { $0 = true }
  }

  deinit {
    idle.withLock { sessions in sessions.removeAll() }
  }

  package func get(_ requests: [RemoteGet]) -> [RemoteResult] { perform(requests.map(CurlRequest.get)).map(\.result) }
  package func get(_ requests: [RemoteGet], each: (Int, RemoteResult, BlobDigest?) -> Void) -> [RemoteResult] {
    perform(requests.map(CurlRequest.get), each: each).map(\.result)
  }
  package func put(_ requests: [RemotePut]) -> [RemoteResult] { perform(requests.map(CurlRequest.put)).map(\.result) }
  package func head(_ keys: [RemoteKey]) -> [RemoteResult] { perform(keys.map(CurlRequest.head)).map(\.result) }
  package func read(_ keys: [RemoteKey], maxBytes: Int) -> [(result: RemoteResult, bytes: [UInt8])] {
    perform(keys.map { CurlRequest.read($0, maxBytes: maxBytes) })
  }

  private func perform(_ requests: [CurlRequest], each: (Int, RemoteResult, BlobDigest?) -> Void = { _, _, _ in }) -> [(result: RemoteResult, bytes: [UInt8])] {
    guard !requests.isEmpty else { return [] }
    guard Self.globalInit == CURLE_OK, let session = idle.withLock({ $0.popLast() }) ?? CurlSession(connections: config.parallel) else {
      // On Linux libcurl is loaded only now (CCurl): a machine without it says so here.
      let why = duet_curl_missing().map { "libcurl could not be loaded (\(String(cString: $0))); install libcurl4" } ?? "libcurl could not start"
      let failed = requests.map { RemoteResult.failed("remote cache \(config.base): \($0.method) \($0.key): \(why)") }
      for (offset, result) in failed.enumerated() { each(offset, result, nil) }
      return failed.map { ($0, []) }
    }
    defer { idle.withLock { $0.append(session) } }
    var bodies = [[UInt8]](repeating: [], count: requests.count)
    var told = [Bool](repeating: false, count: requests.count)
    let results = run(requests, on: session, bodies: &bodies) { offset, result, written in
      told[offset] = true
      each(offset, scrubbed(result), written)
    }.map(scrubbed)
    // Those the call ended before they were sent are told of now.
    for offset in requests.indices where !told[offset] { each(offset, results[offset], nil) }
    return zip(results, bodies).map { ($0, $1) }
  }

  /// The multi loop: keeps up to `parallel` transfers in flight, starting the
  /// next request as each one ends, until every request has its result (and
  /// a `read` its body in `bodies`). The
  /// first request that fails ends the call: no other request waits for a
  /// server that has failed once (each is answered with that failure). So does
  /// the run's stall budget spent (`StallClock`) and `cancel()`, seen within 100 ms.
  private func run(_ requests: [CurlRequest], on session: CurlSession, bodies: inout [[UInt8]],
                   ended tell: (Int, RemoteResult, BlobDigest?) -> Void) -> [RemoteResult] {
    var results = [RemoteResult?](repeating: nil, count: requests.count)
    var free = session.handles(min(config.parallel, requests.count))
    guard !free.isEmpty else {
      return requests.map { .failed("remote cache \(config.base): \($0.method) \($0.key): libcurl could not make a handle") }
    }
    var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    var next = 0, finished = 0, movedBefore = 0
    var watch = stall.watch()
    var ended = stopReason(&watch, moved: 0, finished: 0)
    while ended == nil, next < requests.count || !active.isEmpty {
      while next < requests.count, let handle = free.popLast() {
        let transfer = CurlTransfer(index: next, request: requests[next], handle: handle, config: config)
        next += 1
        if let early = transfer.start() {
          results[transfer.index] = early
          free.append(handle)
        } else if duet_curl_multi_add_handle(session.multi, handle) != CURLM_OK {
          results[transfer.index] = .failed("remote cache \(config.base): \(transfer.request.method) \(transfer.request.key): libcurl refused the request")
          free.append(handle)
        } else {
          active[handle] = transfer
        }
      }
      var running: Int32 = 0
      guard duet_curl_multi_perform(session.multi, &running) == CURLM_OK else { break }
      let finishedBefore = finished
      var handle: UnsafeMutableRawPointer?
      var code = CURLE_OK
      while duet_curl_multi_next_done(session.multi, &handle, &code) == 1 {
        guard let done = handle, let transfer = active.removeValue(forKey: done) else { continue }
        duet_curl_multi_remove_handle(session.multi, done)
        let result = transfer.finish(code)
        results[transfer.index] = result
        bodies[transfer.index] = transfer.body
        // A failure ends the call: it and the others are told of with its reason, after it.
        if case .failed = result {} else { tell(transfer.index, result, transfer.digestIfWritten(result)) }
        free.append(done)
        finished += 1
        movedBefore += transfer.moved
        if case .failed(let why) = result, ended == nil { ended = why }
      }
      if ended == nil { ended = stopReason(&watch, moved: movedBefore + active.values.reduce(0) { $0 + $1.moved }, finished: finished) }
      if ended == nil, finished == finishedBefore, !active.isEmpty { duet_curl_multi_poll(session.multi, nil, 0, 100, nil) }
    }
    for (handle, transfer) in active {  // stopped, or libcurl itself failed
      duet_curl_multi_remove_handle(session.multi, handle)
      let result = transfer.finish(CURLE_FAILED_INIT)
      if ended == nil { results[transfer.index] = result }
    }
    // A request not answered gets the reason the call ended (or says libcurl stopped).
    return requests.indices.map { offset in
      results[offset] ?? .failed(ended ?? "remote cache \(config.base): \(requests[offset].method) \(requests[offset].key): libcurl stopped")
    }
  }

  /// Why the call ends now, if it does: Ctrl-C, or the run's stall budget spent.
  private func stopReason(_ watch: inout StallClock.Watch, moved: Int, finished: Int) -> String? {
    if cancelled.withLock({ $0 }) { return "remote cache \(config.base): stopped (interrupted)" }
    guard stall.tick(&watch, moved: moved, finished: finished) else { return nil }
    return "remote cache \(config.base): stalled: under \(config.stallRate / 1024) KiB/s for "
      + "\(config.stallBudget.components.seconds) s in this run"
  }

  /// `result` with every credential replaced by `***`: user (4 characters or
  /// more, so a short name cannot blank out ordinary words), password, token
  /// and signing key, as they are and percent-encoded.
  func scrubbed(_ result: RemoteResult) -> RemoteResult {
    guard case .failed(var text) = result else { return result }
    let key = config.signingKey.map { String(decoding: $0, as: UTF8.self) }
    for secret in [config.password, config.bearerToken, key].compactMap({ $0 }) + [config.user].compactMap({ $0 }).filter({ $0.count >= 4 }) {
      guard !secret.isEmpty else { continue }
      text = text.replacingOccurrences(of: secret, with: "***")
      if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
        text = text.replacingOccurrences(of: encoded, with: "***")
      }
    }
    return .failed(text)
  }
}

/// A multi handle and the easy handles it drives, reused call after call so
/// their connections stay open. Used by one call at a time.
final class CurlSession {
  let multi: UnsafeMutableRawPointer
  private var easy: [UnsafeMutableRawPointer] = []

  init?(connections: Int) {
    guard let multi = duet_curl_multi_init() else { return nil }
    self.multi = multi
    duet_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(1, connections))
  }

  /// `count` easy handles, made as needed (at least one: a session that cannot
  /// make any fails its requests through `CURLE_FAILED_INIT`).
  func handles(_ count: Int) -> [UnsafeMutableRawPointer] {
    while easy.count < count, let handle = duet_curl_easy_init() { easy.append(handle) }
    return Array(easy.prefix(count))
  }

  deinit {
    for handle in easy { duet_curl_easy_cleanup(handle) }
    duet_curl_multi_cleanup(multi)
  }
}
