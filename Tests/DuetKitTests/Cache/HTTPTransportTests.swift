@testable import DuetFuzzSupport
import Foundation
import Testing
@testable import DuetCache
@testable import DuetSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The remote cache's wire against a real nginx with WebDAV, as a team would
/// serve it: what is PUT comes back byte for byte, every way a server can fail
/// is a `failed` sentence (quickly), and no credential is ever in one.
@Suite("HTTPTransport against nginx")
struct HTTPTransportTests {
  /// A transport on `location` of `server`, with the low-speed rule tightened
  /// so the tests of stalls finish in about a second.
  func transport(_ server: NginxServer, _ location: String = "cache", user: String? = nil, token: String? = nil) throws -> HTTPTransport {
    let url = user.map { server.url(location).replacingOccurrences(of: "://", with: "://\($0)@") } ?? server.url(location)
    var config = try RemoteCacheConfig(url: url)
    config.bearerToken = token
    config.lowSpeedTime = .seconds(1)
    config.connectTimeout = .seconds(2)
    return HTTPTransport(config: config)
  }

  func blob(_ size: Int, seed: UInt8 = 7) -> Data {
    Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
  }

  /// Writes `data` into `folder` and returns the PUT of it under its digest.
  func upload(_ data: Data, in folder: TemporaryFolder, name: String) throws -> RemotePut {
    let file = folder.url.appendingPathComponent(name)
    try data.write(to: file)
    return RemotePut(key: RemoteKey(.cas, Digest.sha256(data)), source: file.path)
  }

  func secondsTaken(_ body: () -> Void) -> Double {
    let start = Date()
    body()
    return Date().timeIntervalSince(start)
  }

  /// Each GET is told of as it ends, with the digest of the bytes it wrote
  /// (hashed on the way, so the store need not read the file back); a 404 is
  /// told of with none.
  @Test func eachGetIsToldOfWithTheDigestOfWhatItWrote() throws {
    let server = try NginxServer.start()
    let folder = try TemporaryFolder()
    let blobs = [Data(), Data("hello".utf8), blob(3 << 20)]
    let puts = try blobs.enumerated().map { try upload($1, in: folder, name: "up\($0)") }
    let cache = try transport(server)
    #expect(cache.put(puts) == blobs.map { .done(bytes: $0.count) })
    var gets = puts.enumerated().map { RemoteGet(key: $1.key, destination: folder.url.appendingPathComponent("down\($0)").path, maxBytes: 10 << 20) }
    gets.append(RemoteGet(key: RemoteKey(.cas, String(repeating: "0", count: 64)), destination: folder.url.appendingPathComponent("none").path, maxBytes: 10))
    var told: [Int: (RemoteResult, BlobDigest?)] = [:]
    let results = cache.get(gets) { offset, result, written in told[offset] = (result, written) }
    #expect(results == blobs.map { .done(bytes: $0.count) } + [.missing])
    #expect(told.count == 4)
    for (offset, data) in blobs.enumerated() {
      #expect(told[offset]?.1 == BlobDigest(hash: Digest.sha256(data), size: data.count), "GET \(offset)")
    }
    #expect(told[3]?.0 == .missing)
    #expect(told[3]?.1 == nil)
  }

  /// What is PUT (an empty blob, a small one, 5 MB) is stored, and a GET
  /// writes the same bytes to the destination and counts them.
  @Test func putThenGetRoundTrips() throws {
    let server = try NginxServer.start()
    let folder = try TemporaryFolder()
    let blobs = [Data(), Data("hello".utf8), blob(5 << 20)]
    let puts = try blobs.enumerated().map { try upload($1, in: folder, name: "up\($0)") }
    let cache = try transport(server)
    #expect(cache.put(puts) == blobs.map { .done(bytes: $0.count) })
    #expect(try Data(contentsOf: server.stored("cas/\(puts[2].key.hash)")) == blobs[2])
    let gets = puts.enumerated().map { RemoteGet(key: $1.key, destination: folder.url.appendingPathComponent("down\($0)").path, maxBytes: 10 << 20) }
    #expect(cache.get(gets) == blobs.map { .done(bytes: $0.count) })
    for (get, data) in zip(gets, blobs) { #expect(try Data(contentsOf: URL(fileURLWithPath: get.destination)) == data) }
    var info = stat()
    #expect(stat(gets[1].destination, &info) == 0 && info.st_mode & 0o777 == 0o600)
  }

  /// HEAD says `done` with the size for a stored object and `missing` for
  /// one that is not; a GET of a missing key is `missing` and writes nothing.
  @Test func headAndMissingKeys() throws {
    let server = try NginxServer.start()
    let folder = try TemporaryFolder()
    let cache = try transport(server)
    let put = try upload(blob(1000), in: folder, name: "a")
    #expect(cache.put([put]) == [.done(bytes: 1000)])
    let absent = RemoteKey(.ac, String(repeating: "0", count: 64))
    #expect(cache.head([put.key, absent]) == [.done(bytes: 1000), .missing])
    let destination = folder.url.appendingPathComponent("absent").path
    #expect(cache.get([RemoteGet(key: absent, destination: destination, maxBytes: 100)]) == [.missing])
    #expect(!FileManager.default.fileExists(atPath: destination))
    #expect(cache.get([]) == [] && cache.head([]) == [])
  }

  /// A 500 fails every method with the redacted base URL, the method, the key
  /// and the status in one sentence.
  @Test func serverErrorIsASentence() throws {
    let server = try NginxServer.start()
    let folder = try TemporaryFolder()
    let cache = try transport(server, "fail")
    let put = try upload(blob(10), in: folder, name: "a")
    let key = put.key
    let expected = { (method: String) in RemoteResult.failed("remote cache \(server.url("fail")): \(method) cas/\(key.hash): HTTP 500") }
    #expect(cache.get([RemoteGet(key: key, destination: folder.url.appendingPathComponent("d").path, maxBytes: 100)]) == [expected("GET")])
    #expect(cache.put([put]) == [expected("PUT")])
    #expect(cache.head([key]) == [expected("HEAD")])
    #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("d").path))
  }

  /// A stopped server fails at once (a refused connect), well inside the
  /// connect timeout, and a key that is not a SHA-256 is refused before any
  /// request (it would otherwise become a path on the server).
  @Test func stoppedServerFailsQuickly() throws {
    let server = try NginxServer.start()
    let cache = try transport(server)
    server.stop()
    var results: [RemoteResult] = []
    let seconds = secondsTaken { results = cache.head([RemoteKey(.cas, String(repeating: "a", count: 64)), RemoteKey(.cas, "../../etc/passwd")]) }
    #expect(seconds < 2)
    guard results.count == 2, case .failed(let refused) = results[0], case .failed(let invalid) = results[1] else {
      Issue.record("expected two failures, got \(results)")
      return
    }
    #expect(refused.hasPrefix("remote cache \(server.url("cache")): HEAD cas/aaaa"))
    #expect(refused.contains("onnect"))
    #expect(invalid.hasSuffix("HEAD cas/../../etc/passwd: not a SHA-256 key"))
  }

  /// A server that accepts the connection and never answers is given up on
  /// after the low-speed time (1 s here), not waited on.
  @Test func silentServerIsAbandoned() throws {
    let listener = socket(AF_INET, NginxServer.streamSocket, 0)
    defer { close(listener) }
    var address = NginxServer.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
    }
    #expect(listening && listen(listener, 8) == 0)
    var config = try RemoteCacheConfig(url: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/cache")
    config.lowSpeedTime = .seconds(1)
    var results: [RemoteResult] = []
    let seconds = secondsTaken { results = HTTPTransport(config: config).head([RemoteKey(.cas, String(repeating: "b", count: 64))]) }
    #expect(seconds < 5)
    #expect(results.count == 1 && { if case .failed(let text) = results[0] { text.contains("too slow") } else { false } }())
  }

  /// An answer trickling below the low-speed limit fails within the
  /// low-speed time, and the bytes that did arrive are not left behind.
  @Test func slowAnswerFailsAndLeavesNothing() throws {
    let server = try NginxServer.start(slowBytesPerSecond: 200)
    let folder = try TemporaryFolder()
    let put = try upload(blob(50_000), in: folder, name: "a")
    #expect(try transport(server).put([put]) == [.done(bytes: 50_000)])
    let destination = folder.url.appendingPathComponent("slow").path
    var results: [RemoteResult] = []
    let seconds = secondsTaken { results = (try? transport(server, "slow").get([RemoteGet(key: put.key, destination: destination, maxBytes: 1 << 20)])) ?? [] }
    #expect(seconds < 5)
    #expect(results.count == 1 && { if case .failed(let text) = results[0] { text.contains("GET cas/\(put.key.hash): Operation too slow") } else { false } }())
    #expect(((try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0) == 0)
  }

  /// A blob past `maxBytes` fails with the limit and leaves no bytes in the
  /// destination, whether the server announced its size or sent it chunked
  /// (refused as it grows), and the next GET on the same handle still works.
  @Test func tooLargeIsRefused() throws {
    let server = try NginxServer.start()
    let folder = try TemporaryFolder()
    let cache = try transport(server)
    let put = try upload(blob(100_000), in: folder, name: "a")
    #expect(cache.put([put]) == [.done(bytes: 100_000)])
    let destination = folder.url.appendingPathComponent("big").path
    #expect(cache.get([RemoteGet(key: put.key, destination: destination, maxBytes: 99_999)])
      == [.failed("remote cache \(server.url("cache")): GET cas/\(put.key.hash): larger than 99999 bytes")])
    #expect(((try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0) == 0)
    #expect(cache.get([RemoteGet(key: put.key, destination: destination, maxBytes: 100_000)]) == [.done(bytes: 100_000)])
    let chunked = try transport(server, "chunked")
    #expect(chunked.get([RemoteGet(key: put.key, destination: destination, maxBytes: 99_999)])
      == [.failed("remote cache \(server.url("chunked")): GET cas/\(put.key.hash): larger than 99999 bytes")])
    #expect(((try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0) == 0)
    #expect(chunked.get([RemoteGet(key: put.key, destination: destination, maxBytes: 100_000)]) == [.done(bytes: 100_000)])
    #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == blob(100_000))
  }

  /// A destination that is a symbolic link is not followed: the GET fails and
  /// the file the link points at is untouched.
  @Test func destinationLinkIsNotFollowed() throws {
    let server = try NginxServer.start()
    let folder = try TemporaryFolder()
    let cache = try transport(server)
    let put = try upload(blob(100), in: folder, name: "a")
    #expect(cache.put([put]) == [.done(bytes: 100)])
    try folder.write("victim", "keep me")
    let link = folder.url.appendingPathComponent("link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.url.appendingPathComponent("victim").path)
    let result = cache.get([RemoteGet(key: put.key, destination: link, maxBytes: 1000)])
    #expect(result.count == 1 && { if case .failed(let text) = result[0] { text.contains("cannot write") } else { false } }())
    #expect(try String(contentsOf: folder.url.appendingPathComponent("victim"), encoding: .utf8) == "keep me")
  }

  /// 100 GETs in one call all arrive intact, over no more connections than
  /// `parallel` allows, and a later call reuses them (keep-alive).
  @Test func hundredParallelGetsShareConnections() throws {
    let server = try NginxServer.start()
    let folder = try TemporaryFolder()
    let cache = try transport(server)
    let blobs = (0..<100).map { blob(20_000, seed: UInt8($0)) }
    let puts = try blobs.enumerated().map { try upload($1, in: folder, name: "up\($0)") }
    #expect(cache.put(puts) == blobs.map { .done(bytes: $0.count) })
    let gets = puts.enumerated().map { RemoteGet(key: $1.key, destination: folder.url.appendingPathComponent("down\($0)").path, maxBytes: 1 << 20) }
    #expect(cache.get(gets) == blobs.map { .done(bytes: $0.count) })
    #expect(try gets.map { try Data(contentsOf: URL(fileURLWithPath: $0.destination)) } == blobs)
    let requests = server.requests()
    #expect(requests.count == 200)
    #expect(Set(requests.map(\.connection)).count <= cache.config.parallel)
  }

  /// A bearer token is sent as `Authorization: Bearer`; without it, or with
  /// the wrong one, the server's 401 is a failure that never shows the token.
  @Test func bearerTokenIsSentAndNeverShown() throws {
    let server = try NginxServer.start(bearerToken: "right-token-123")
    let folder = try TemporaryFolder()
    let put = try upload(blob(64), in: folder, name: "a")
    #expect(try transport(server, "bearer", token: "right-token-123").put([put]) == [.done(bytes: 64)])
    let head = try transport(server, "bearer", token: "right-token-123").head([put.key])
    #expect(head == [.done(bytes: 64)])
    for token in [nil, "wrong-token-456"] {
      let results = try transport(server, "bearer", token: token).head([put.key])
      #expect(results == [.failed("remote cache \(server.url("bearer")): HEAD cas/\(put.key.hash): HTTP 401 (the server refused the credentials)")])
    }
  }

  /// Basic auth comes from the URL's userinfo (percent-decoded; nginx's
  /// htpasswd cannot hold a `:` in a password, so this one has none); a wrong
  /// password is a 401 whose sentence holds neither the user nor the password.
  @Test func basicAuthIsSentAndNeverShown() throws {
    let server = try NginxServer.start(basicUser: "cacheuser", basicPassword: "p@ss w/rd")
    let folder = try TemporaryFolder()
    let put = try upload(blob(64), in: folder, name: "a")
    let right = try transport(server, "basic", user: "cacheuser:p%40ss%20w%2Frd")
    #expect(right.config.password == "p@ss w/rd")
    #expect(right.put([put]) == [.done(bytes: 64)])
    #expect(right.head([put.key]) == [.done(bytes: 64)])
    let wrong = try transport(server, "basic", user: "cacheuser:wrong-password")
    let results = wrong.head([put.key])
    #expect(results == [.failed("remote cache \(server.url("basic")): HEAD cas/\(put.key.hash): HTTP 401 (the server refused the credentials)")])
  }

  /// Whatever fails (a refused connect, a 500, a 401), the sentence holds none
  /// of the user, password, token or signing key, even when libcurl's text
  /// were to quote them.
  @Test func noCredentialInAnyFailure() throws {
    let server = try NginxServer.start()
    let folder = try TemporaryFolder()
    let put = try upload(blob(10), in: folder, name: "a")
    let secrets = ["secretuser", "secret-pass", "secret-token", "secret-key"]
    var texts: [String] = []
    for location in ["fail", "basic", "bearer"] {
      var config = try RemoteCacheConfig(url: server.url(location).replacingOccurrences(of: "://", with: "://secretuser:secret-pass@"))
      config.signingKey = Array("secret-key".utf8)
      let cache = HTTPTransport(config: config)
      texts += (cache.put([put]) + cache.head([put.key])).compactMap { if case .failed(let text) = $0 { text } else { nil } }
    }
    server.stop()
    var config = try RemoteCacheConfig(url: server.url("cache"))
    config.bearerToken = "secret-token"
    texts += HTTPTransport(config: config).head([put.key]).compactMap { if case .failed(let text) = $0 { text } else { nil } }
    #expect(texts.count == 7)
    for text in texts { #expect(!secrets.contains { text.contains($0) }, "\(text)") }
    // The second guard: a sentence that did quote one is scrubbed.
    #expect(HTTPTransport(config: config).scrubbed(.failed("x secret-token y secret%2Dtoken")) == .failed("x *** y ***"))
  }
}

/// The remote cache's settings as they enter: the flag or the variables,
/// every error naming its source, and no secret in any text shown.
@Suite("HTTPTransport config")
struct HTTPTransportConfigTests {
  func resolve(_ environment: [String: String], flag: String? = nil) throws(RemoteCacheConfigError) -> RemoteCacheConfig? {
    try RemoteCacheConfig.resolve(flag: flag, environment: environment)
  }

  func error(_ environment: [String: String], flag: String? = nil) -> String? {
    do {
      _ = try resolve(environment, flag: flag)
      return nil
    } catch {
      return error.description
    }
  }

  /// No flag and no (or an empty) `DUET_REMOTE_CACHE` is no remote cache;
  /// the flag wins over the variable.
  @Test func flagWinsAndNothingIsOff() throws {
    #expect(try resolve([:]) == nil)
    #expect(try resolve(["DUET_REMOTE_CACHE": ""]) == nil)
    #expect(try resolve(["DUET_REMOTE_CACHE": "http://env/cache"])?.base == "http://env/cache")
    #expect(try resolve(["DUET_REMOTE_CACHE": "http://env/cache"], flag: "https://flag:8443/c/")?.base == "https://flag:8443/c")
  }

  /// Every field from its variable: userinfo percent-decoded out of the base,
  /// token, upload, key, jobs; the defaults otherwise.
  @Test func fieldsFromTheEnvironment() throws {
    let config = try #require(try resolve(["DUET_REMOTE_CACHE": "HTTP://al%20ice:p%40ss@Cache.example:8080/team/cache//"]))
    #expect(config.base == "http://Cache.example:8080/team/cache")
    #expect(config.redacted == config.base)
    #expect(config.user == "al ice" && config.password == "p@ss")
    #expect(config.bearerToken == nil && !config.upload && config.signingKey == nil)
    #expect(config.parallel == 16 && config.maxBlobBytes == 2 << 30)
    #expect(config.connectTimeout == .seconds(5) && config.lowSpeedLimit == 1024 && config.lowSpeedTime == .seconds(10))
    let full = try #require(try resolve([
      "DUET_REMOTE_CACHE": "https://cache", "DUET_REMOTE_CACHE_TOKEN": "tok-123", "DUET_REMOTE_CACHE_UPLOAD": "true",
      "DUET_REMOTE_CACHE_KEY": "k3y", "DUET_REMOTE_CACHE_JOBS": "64",
    ]))
    #expect(full.bearerToken == "tok-123" && full.upload && full.signingKey == Array("k3y".utf8) && full.parallel == 64)
    #expect(try resolve(["DUET_REMOTE_CACHE": "http://c", "DUET_REMOTE_CACHE_UPLOAD": "1"])?.upload == true)
    #expect(try resolve(["DUET_REMOTE_CACHE": "http://c", "DUET_REMOTE_CACHE_UPLOAD": "0"])?.upload == false)
  }

  /// Each refusal names its source and shows the URL redacted: no user,
  /// password or query, even where the URL is malformed.
  @Test func errorsNameTheSourceAndShowNoSecret() {
    let cases: [([String: String], String?, String)] = [
      (["DUET_REMOTE_CACHE": "ftp://u:pw1@host/x"], nil, #"DUET_REMOTE_CACHE: expected an http:// or https:// URL, got "ftp://host/x""#),
      ([:], "cache.example/x", #"--remote-cache: expected an http:// or https:// URL, got "cache.example/x""#),
      (["DUET_REMOTE_CACHE": "http:///x"], nil, #"DUET_REMOTE_CACHE: no host in "http:///x""#),
      (["DUET_REMOTE_CACHE": "http://u:pw2@host/x?token=pw3"], nil, #"DUET_REMOTE_CACHE: a query or fragment is not allowed in the cache URL, got "http://host/x?…""#),
      (["DUET_REMOTE_CACHE": "http://u:p#w4@host/x"], nil, #"DUET_REMOTE_CACHE: a query or fragment is not allowed in the cache URL, got "http://host/x""#),
      (["DUET_REMOTE_CACHE": "http://host:99999/x"], nil, #"DUET_REMOTE_CACHE: port 99999 is out of range in "http://host:99999/x""#),
      (["DUET_REMOTE_CACHE": "http://u:pw5@ho st/x"], nil, #"DUET_REMOTE_CACHE: not a valid URL: "http://ho st/x""#),
      (["DUET_REMOTE_CACHE": "http://c", "DUET_REMOTE_CACHE_JOBS": "65"], nil, #"DUET_REMOTE_CACHE_JOBS: expected a number from 1 to 64, got "65""#),
      (["DUET_REMOTE_CACHE": "http://c", "DUET_REMOTE_CACHE_JOBS": "many"], nil, #"DUET_REMOTE_CACHE_JOBS: expected a number from 1 to 64, got "many""#),
      (["DUET_REMOTE_CACHE": "http://c", "DUET_REMOTE_CACHE_UPLOAD": "yes"], nil, #"DUET_REMOTE_CACHE_UPLOAD: expected 1, true, 0 or false, got "yes""#),
      (["DUET_REMOTE_CACHE": "http://c", "DUET_REMOTE_CACHE_TOKEN": "pw6\nX-Evil: 1"], nil, "DUET_REMOTE_CACHE_TOKEN: expected printable ASCII without spaces or line breaks (the value is not shown)"),
      (["DUET_REMOTE_CACHE": "http://u:pw7@c", "DUET_REMOTE_CACHE_TOKEN": "pw8"], nil, "DUET_REMOTE_CACHE_TOKEN: set, and DUET_REMOTE_CACHE holds a user too: use one of a bearer token and a user and password"),
    ]
    for (environment, flag, expected) in cases {
      let text = error(environment, flag: flag)
      #expect(text == expected)
      #expect(!(text ?? "").contains("pw"), "\(text ?? "")")
    }
  }

  /// Printing a config, or a test failure dumping one, shows the base and
  /// never a credential.
  @Test func configTextHidesSecrets() throws {
    var config = try RemoteCacheConfig(url: "https://usr1:pw-secret@cache.example/c")
    config.signingKey = Array("key-secret".utf8)
    var dumped = ""
    dump(config, to: &dumped)
    for text in [config.description, String(describing: config), String(reflecting: config), dumped] {
      #expect(text.contains("https://cache.example/c"))
      #expect(!text.contains("pw-secret") && !text.contains("key-secret") && !text.contains("usr1"), "\(text)")
    }
    #expect(RemoteCacheConfig.redact("https://a:b@c@host/p?x#y") == "https://host/p?…")
    #expect(RemoteCacheConfig.redact("u:p@host\n/x") == "host\\n/x")
  }

  /// A transfer's reason is a terminal line (issue 54, item 11): a source
  /// path holding `\n::error::` or ESC comes out escaped once, on the
  /// sentence's one line. The source cannot be read, so no request is sent.
  @Test func aTransfersReasonEscapesItsPathOnce() throws {
    let cache = HTTPTransport(config: try RemoteCacheConfig(url: "http://127.0.0.1:9/cache"))
    let key = RemoteKey(.cas, String(repeating: "a", count: 64))
    let results = cache.put([RemotePut(key: key, source: "/nonexistent/x\n::error::owned\u{1B}]0;t")])
    #expect(results == [.failed(#"remote cache http://127.0.0.1:9/cache: PUT cas/\#(key.hash): cannot read /nonexistent/x\n::error::owned\u{1B}]0;t: No such file or directory"#)])
  }
}
