import CCurl
import DuetSupport
import Foundation

/// What one transfer does: a GET into a file or into memory (at most so many
/// bytes), a PUT from a file, or a HEAD.
enum CurlRequest {
  case get(RemoteGet)
  case read(RemoteKey, maxBytes: Int)
  case put(RemotePut)
  case head(RemoteKey)

  var key: RemoteKey {
    switch self {
    case .get(let get): get.key
    case .read(let key, _): key
    case .put(let put): put.key
    case .head(let key): key
    }
  }

  var method: String {
    switch self {
    case .get, .read: "GET"
    case .put: "PUT"
    case .head: "HEAD"
    }
  }
}

/// One request on one reused easy handle: its options, the file its body comes
/// from or goes to, and how it ended. libcurl calls `receive` and `send` from
/// `curl_multi_perform` on the caller's thread, so nothing here is shared.
final class CurlTransfer {
  let index: Int
  let request: CurlRequest
  private let handle: UnsafeMutableRawPointer
  private let config: RemoteCacheConfig
  /// The destination (GET, opened once the server answers 200) or the source (PUT).
  private var fd: Int32 = -1
  private var bytes = 0
  /// Bytes that crossed the wire so far, either way (a body's, any status):
  /// what the stall clock counts.
  private(set) var moved = 0
  /// A `read`'s body, once the server answered 200.
  private(set) var body: [UInt8] = []
  /// A GET's bytes hashed as they are written, so the store need not read the
  /// file back to check it (issue 51: each blob hashed once, as curl writes it once).
  private var hasher = Digest()
  private var uploadSize = 0
  /// Why duet stopped the transfer itself (too large, a file it cannot write).
  private var abort: TerminalLine?
  private let errorBuffer: UnsafeMutablePointer<CChar>
  private var headers: UnsafeMutablePointer<curl_slist>?

  init(index: Int, request: CurlRequest, handle: UnsafeMutableRawPointer, config: RemoteCacheConfig) {
    self.index = index
    self.request = request
    self.handle = handle
    self.config = config
    let size = Int(duet_curl_error_size())
    errorBuffer = .allocate(capacity: size)
    errorBuffer.initialize(repeating: 0, count: size)
  }

  deinit {
    if fd >= 0 { close(fd) }
    duet_curl_slist_free_all(headers)
    errorBuffer.deallocate()
  }

  /// Sets the handle up for this request; a result instead when it cannot be
  /// sent at all (a key that is not a SHA-256, a source that cannot be read).
  func start() -> RemoteResult? {
    let key = request.key
    guard key.hash.utf8.count == 64, key.hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
      return failure("not a SHA-256 key")
    }
    duet_curl_easy_reset(handle)
    setCommonOptions(url: "\(config.base)/\(key)")
    let context = Unmanaged.passUnretained(self).toOpaque()
    duet_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
      guard let context else { return 0 }
      return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receive(buffer, size * count)
    }
    duet_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
    switch request {
    case .get, .read:
      duet_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
    case .head:
      duet_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
    case .put(let put):
      if let refused = startUpload(put, context: context) { return refused }
    }
    duet_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
    return nil
  }

  /// The options every request has: where, how long, who, and nothing else
  /// (no redirects, no other protocol, no signals, nothing printed).
  private func setCommonOptions(url: String) {
    duet_curl_setopt_string(handle, CURLOPT_URL, url)
    duet_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    duet_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
    duet_curl_setopt_long(handle, CURLOPT_VERBOSE, 0)
    duet_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
    duet_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
    duet_curl_setopt_string(handle, CURLOPT_USERAGENT, "duet")
    duet_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, config.connectTimeout.curlMilliseconds)
    duet_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, config.requestTimeout.curlMilliseconds)
    duet_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, max(1, config.lowSpeedLimit))
    duet_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, (config.lowSpeedTime.curlMilliseconds + 999) / 1000))
    if let token = config.bearerToken {
      headers = duet_curl_slist_append(headers, "Authorization: Bearer \(token)")
    } else if let user = config.user {
      duet_curl_setopt_long(handle, CURLOPT_HTTPAUTH, duet_curlauth_basic())
      duet_curl_setopt_string(handle, CURLOPT_USERNAME, user)
      duet_curl_setopt_string(handle, CURLOPT_PASSWORD, config.password ?? "")
    }
  }

  /// PUT with a Content-Length: the source opened (no links followed) and
  /// measured first, so the server knows the size and libcurl streams it.
  private func startUpload(_ put: RemotePut, context: UnsafeMutableRawPointer) -> RemoteResult? {
    guard !put.contentType.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      return failure("a content type with a control character")
    }
    fd = open(put.source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    var info = stat()
    guard fd >= 0, fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      return failure("cannot read \(put.source): \(fd >= 0 ? "not a regular file" : String(cString: strerror(errno)))")
    }
    uploadSize = Int(info.st_size)
    headers = duet_curl_slist_append(headers, "Content-Type: \(put.contentType)")
    duet_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
    duet_curl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(uploadSize))
    duet_curl_setopt_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, context in
      guard let context, let buffer else { return duet_curl_readfunc_abort() }
      return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().send(buffer, size * count)
    }
    duet_curl_setopt_pointer(handle, CURLOPT_READDATA, context)
    return nil
  }

  /// Body bytes from the server. A GET's go to the destination only when the
  /// answer is 200 (a 404 page or a 500 body is dropped), and never past
  /// `maxBytes`: a Content-Length over it stops the transfer before the first
  /// byte is written, a body that grows past it when it does. (libcurl's
  /// CURLOPT_MAXFILESIZE would refuse a long 404 page too.) HEAD and PUT
  /// bodies are dropped.
  private func receive(_ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
    moved += count
    if case .read(_, let maxBytes) = request, status == 200 {
      guard body.count + count <= maxBytes else {
        abort = "larger than \(maxBytes) bytes"
        return 0
      }
      if let buffer { body += UnsafeRawBufferPointer(start: buffer, count: count) }
      return count
    }
    guard case .get(let get) = request, status == 200 else { return count }
    var announced: curl_off_t = -1
    if fd < 0 { duet_curl_getinfo_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced) }
    guard bytes + count <= get.maxBytes, announced <= get.maxBytes else {
      abort = "larger than \(get.maxBytes) bytes"
      return 0
    }
    if fd < 0 {
      fd = open(get.destination, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard fd >= 0 else {
        abort = "cannot write \(get.destination): \(String(cString: strerror(errno)))"
        return 0
      }
    }
    if let buffer, let failed = writeAll(fd, UnsafeRawBufferPointer(start: buffer, count: count)) {
      abort = "cannot write \(get.destination): \(String(cString: strerror(failed)))"
      return 0
    }
    if let buffer { hasher.update(UnsafeRawBufferPointer(start: buffer, count: count)) }
    bytes += count
    return count
  }

  /// Bytes of a PUT's source for libcurl to send.
  private func send(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
    while true {
      let n = read(fd, buffer, count)
      if n >= 0 {
        moved += n
        return n
      }
      if errno == EINTR { continue }
      guard case .put(let put) = request else { return duet_curl_readfunc_abort() }
      abort = "cannot read \(put.source): \(String(cString: strerror(errno)))"
      return duet_curl_readfunc_abort()
    }
  }

  /// The HTTP status so far (0 before the answer's first line).
  private var status: Int {
    var code = 0
    duet_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
    return code
  }

  /// The digest of the bytes a GET wrote to its destination, once `finish`
  /// said `result`; nil for any other request or ending.
  func digestIfWritten(_ result: RemoteResult) -> BlobDigest? {
    guard case .get = request, case .done = result else { return nil }
    return BlobDigest(hash: hasher.finishAndReset(), size: bytes)
  }

  /// How the request ended, once libcurl is done with it. A GET that does not
  /// end `done` leaves no bytes in its destination.
  func finish(_ code: CURLcode) -> RemoteResult {
    var result = outcome(code)
    if case .get(let get) = request, case .done = result {
      if fd < 0 { receiveEmptyBody(get) }
      if let abort {
        result = failure(abort)
      } else {
        // The bytes are trusted by the digest taken as they were written: a
        // write that fails only at close (a full quota, NFS) fails the GET.
        let closed = close(fd)
        fd = -1
        if closed != 0 { result = failure("cannot write \(get.destination): \(String(cString: strerror(errno)))") }
      }
    }
    if fd >= 0 {
      if case .get = request { _ = ftruncate(fd, 0) }
      close(fd)
      fd = -1
    }
    return result
  }

  /// A 200 with no body is an empty blob: its destination is created empty.
  private func receiveEmptyBody(_ get: RemoteGet) {
    fd = open(get.destination, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
    if fd < 0 { abort = "cannot write \(get.destination): \(String(cString: strerror(errno)))" }
  }

  private func outcome(_ code: CURLcode) -> RemoteResult {
    if let abort { return failure(abort) }
    guard code == CURLE_OK else {
      let text = String(cString: errorBuffer)
      return failure("\(text.isEmpty ? String(cString: duet_curl_easy_strerror(code)) : text)")
    }
    let status = self.status
    switch (request, status) {
    case (.get, 200): return .done(bytes: bytes)
    case (.read, 200): return .done(bytes: body.count)
    case (.head, 200):
      // -1 when the server gave no Content-Length: a size duet cannot compare.
      var length: curl_off_t = -1
      duet_curl_getinfo_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
      return .done(bytes: Int(max(-1, length)))
    case (.put, 200), (.put, 201), (.put, 204): return .done(bytes: uploadSize)
    case (.get, 404), (.read, 404), (.head, 404): return .missing
    case (_, 300..<400): return failure("HTTP \(status) (redirects are not followed: give the URL it points to)")
    case (_, 401), (_, 403): return failure("HTTP \(status) (the server refused the credentials)")
    default: return failure("HTTP \(status)")
    }
  }

  /// `remote cache <base>: GET cas/<hex>: <reason>`: the redacted base, the
  /// request, and why, on one line (the reason a terminal line, its paths and
  /// libcurl's words escaped as it was made); a `String` from here on, as the
  /// transport's results are.
  private func failure(_ reason: TerminalLine) -> RemoteResult {
    .failed("remote cache \(config.base): \(request.method) \(request.key): \(reason)")
  }
}

extension Duration {
  /// Whole milliseconds for a libcurl `long` option, at least 1 (0 means
  /// "no limit" to libcurl) and at most a day.
  var curlMilliseconds: Int {
    let (seconds, attoseconds) = components
    guard seconds < 86_400 else { return 86_400_000 }
    return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
  }
}
