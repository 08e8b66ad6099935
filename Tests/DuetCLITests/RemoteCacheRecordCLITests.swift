@testable import DuetCache
@testable import DuetFuzzSupport
import Foundation
import Testing

/// Issue 51, items 1–4: the action entry is the one record that a lane
/// passed. It is kept and served whatever `DUET_HISTORY` says, an entry the
/// remote served is kept locally, what the remote lacks is put again, and a
/// server that lies, hangs or trickles costs one warning and about 10 s.
/// Each run is the built binary (`DUET_BINARY` points these tests at another).
@Suite("The action entry as the one record of a pass", .serialized)
struct RemoteCacheRecordCLITests {
  let remote = RemoteCacheCLITests()

  func verify(_ tree: FixtureTree, _ arguments: String..., environment: [String: String] = [:], timeout: Double = 120) throws -> DuetRun {
    try runBinary(["verify"] + arguments, in: tree.url, environment: environment, timeout: timeout)
  }

  /// A tree of `count` lanes, each writing `size` bytes of its own into `out/<lane>`.
  func lanes(_ count: Int, size: Int) throws -> FixtureTree {
    var manifest = "version: 1\nlanes:\n"
    for lane in 0..<count {
      manifest += "  - name: l\(lane)\n    sh: mkdir -p out/l\(lane) && head -c \(size) src/l\(lane).txt > out/l\(lane)/data\n"
      manifest += "    inputs: [src/l\(lane).txt]\n    outputs: [out/l\(lane)]\n"
    }
    let tree = try FixtureTree(manifest: manifest)
    for lane in 0..<count {
      try tree.write("src/l\(lane).txt", String(repeating: "lane \(lane) ", count: size / 6 + 1))
    }
    return tree
  }

  /// Item 1: with `DUET_HISTORY=off` an explicit remote cache is used: the
  /// uploading run puts its passes (and says at the start what is off), and
  /// another clone with the history off is served them.
  @Test func theHistoryOffStillUsesTheRemote() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    let ci = try remote.clone()
    var off = remote.environment(server, upload: true)
    off["DUET_HISTORY"] = "off"
    let first = try verify(ci, environment: off)
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    #expect(first.stdout.hasPrefix("duet verify: DUET_HISTORY=off: this run is not recorded, but the cache is on"), "\(first.stdout)")
    #expect(first.stdout.contains(server.url("cache")), "\(first.stdout)")
    #expect(server.requests().contains { $0.method == "PUT" && $0.path.contains("/ac/") }, "no entry was uploaded")
    #expect(!ci.exists(".duet/history.sqlite"))
    var reader = remote.environment(server)
    reader["DUET_HISTORY"] = "off"
    let served = try verify(try remote.clone(), environment: reader)
    #expect(served.stdout.contains("duet verify: PASS (2 cached)"), "\(served.stdout)\(served.stderr)")
    let again = try verify(ci, "--no-cache", environment: ["DUET_HISTORY": "off"])
    #expect(!again.stdout.contains("DUET_HISTORY=off"), "--no-cache turns the cache off, and the line with it: \(again.stdout)")
  }

  /// Item 1: the entry is the gate: a history pass with the same inputs and
  /// no entry (the cache cleared) serves nothing; the lanes run.
  @Test func aHistoryPassWithoutAnEntryRuns() throws {
    let tree = try remote.clone()
    #expect(try verify(tree).status == 0)
    #expect(try verify(tree).stdout.contains("PASS (2 cached)"))
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent(".duet/cache/ac"))
    let run = try verify(tree, "--dry-run")
    #expect(run.stdout.contains("no cache entry holds its pass"), "\(run.stdout)")
    let ran = try verify(tree)
    #expect(ran.stdout.contains("duet verify: PASS (2 passed)"), "\(ran.stdout)")
  }

  /// Item 2: a pass the remote served is kept in the local store with its
  /// blobs: with the server gone, the next run is served locally, outputs too.
  @Test func aRemotePassIsKeptLocally() throws {
    let server = try NginxServer.start()
    let ci = try remote.clone()
    #expect(try verify(ci, environment: remote.environment(server, upload: true)).status == 0)
    let laptop = try remote.clone()
    let served = try verify(laptop, environment: remote.environment(server))
    #expect(served.stdout.contains("PASS (2 cached)"), "\(served.stdout)\(served.stderr)")
    server.stop()
    try FileManager.default.removeItem(at: laptop.url.appendingPathComponent("build"))
    let offline = try verify(laptop, environment: remote.environment(server))
    #expect(offline.stdout.contains("✓ kit cached (restored 3 files)"), "\(offline.stdout)\(offline.stderr)")
    #expect(offline.stdout.contains("duet verify: PASS (2 cached)"), "\(offline.stdout)")
    #expect(try laptop.read("build/Kit.xcframework/Info.plist") == ci.read("build/Kit.xcframework/Info.plist"))
  }

  /// Item 3: an upload that failed (the server was down) is put by the next
  /// uploading run, served from its own store; a blob the server holds at
  /// another size is put again.
  @Test func aFailedUploadIsPutAgain() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    let ci = try remote.clone()
    let down = try verify(ci, environment: ["DUET_REMOTE_CACHE": server.url("fail"), "DUET_REMOTE_CACHE_UPLOAD": "1"])
    #expect(down.status == 0 && down.stderr.contains("remote cache"), "\(down.stdout)\(down.stderr)")
    #expect(server.requests().filter { $0.method == "PUT" && $0.status.hasPrefix("2") }.isEmpty)
    let again = try verify(ci, environment: remote.environment(server, upload: true))
    #expect(again.stdout.contains("PASS (2 cached)"), "\(again.stdout)\(again.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: server.stored("ac").path).count == 2)
    #expect(try FileManager.default.contentsOfDirectory(atPath: server.stored("cas").path).count == 4, "2 outputs and 2 logs")
    // A blob cut short on the server: HEAD says another size, so it is put again.
    let blobs = try FileManager.default.contentsOfDirectory(atPath: server.stored("cas").path).map { server.stored("cas/\($0)") }
    let plist = try #require(blobs.first { (try? String(contentsOf: $0, encoding: .utf8)) == "Kit 1.0\n" })
    try Data("Kit".utf8).write(to: plist)
    #expect(try verify(ci, environment: remote.environment(server, upload: true)).status == 0)
    #expect(try String(contentsOf: plist, encoding: .utf8) == "Kit 1.0\n")
    let reader = try verify(try remote.clone(), environment: remote.environment(server))
    #expect(reader.stdout.contains("PASS (2 cached)"), "\(reader.stdout)\(reader.stderr)")
  }

  /// Items 3 and 4: a server answering wrong bytes for every blob is one
  /// warning for the run, not one per lane; an uploading run that found them
  /// damaged puts them again, and the next reader is served.
  @Test func wrongBytesAreOneWarningAndArePutAgain() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    let ci = try lanes(12, size: 4096)
    #expect(try verify(ci, environment: remote.environment(server, upload: true)).status == 0)
    let cas = server.stored("cas")
    for name in try FileManager.default.contentsOfDirectory(atPath: cas.path) {
      var bytes = try Data(contentsOf: cas.appendingPathComponent(name))
      guard !bytes.isEmpty else { continue }
      bytes[0] ^= 0x20
      try bytes.write(to: cas.appendingPathComponent(name))
    }
    let fresh = try lanes(12, size: 4096)
    let run = try verify(fresh, environment: remote.environment(server, upload: true))
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.components(separatedBy: "does not match its name").count == 2, "one warning: \(run.stderr)")
    #expect(run.stdout.contains("PASS (12 passed)"), "\(run.stdout)")
    let reader = try verify(try lanes(12, size: 4096), environment: remote.environment(server))
    #expect(reader.stdout.contains("PASS (12 cached)"), "\(reader.stdout)\(reader.stderr)")
    #expect(reader.stderr.isEmpty, "\(reader.stderr)")
  }

  /// Item 4: a server that accepts connections and never answers stalls a run
  /// of 64 lanes about 10 s (16 at once, 10 s each: 40 s before), with one warning.
  @Test func aWedgedServerStallsTheRunOnce() throws {
    let wedged = try WedgedServer()
    defer { wedged.stop() }
    let tree = try lanes(64, size: 16)
    let started = Date()
    let run = try verify(tree, environment: ["DUET_REMOTE_CACHE": wedged.url])
    let seconds = Date().timeIntervalSince(started)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.components(separatedBy: "remote cache").count == 2, "one warning: \(run.stderr)")
    #expect(seconds < 25, "a wedged server stalled the run \(seconds) s")
  }

  /// Item 4: a server that trickles (2 KB/s a connection, over libcurl's
  /// 1 KiB/s floor) stops being waited for after about 10 s, not a blob's
  /// 32 s twice over.
  @Test func aTricklingServerStallsTheRunOnce() throws {
    let server = try NginxServer.start(slowBytesPerSecond: 2048)
    defer { server.stop() }
    #expect(try verify(try lanes(20, size: 65536), environment: remote.environment(server, upload: true)).status == 0)
    let started = Date()
    let run = try verify(try lanes(20, size: 65536), environment: remote.environment(server, location: "slow"))
    let seconds = Date().timeIntervalSince(started)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("remote cache"), "\(run.stderr)")
    #expect(seconds < 30, "a trickling server stalled the run \(seconds) s")
  }

  /// Item 4: Ctrl-C while the entries are looked up on a wedged server ends
  /// duet within 2 s and leaves no `duet-entry-*` file in the temporary folder.
  @Test func ctrlCDuringALookupEndsAtOnce() throws {
    let wedged = try WedgedServer()
    defer { wedged.stop() }
    let tree = try lanes(4, size: 16)
    let scratch = tree.url.appendingPathComponent("scratch")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    func entryFiles() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []).filter { $0.hasPrefix("duet-entry-") }
    }
    var interrupted: Date?
    let run = try runBinary(["verify"], in: tree.url, environment: ["DUET_REMOTE_CACHE": wedged.url, "TMPDIR": scratch.path],
                            timeout: 60, whileRunning: { process, _ in
                              #expect(eventually(within: 20) { wedged.accepted > 0 }, "the lookup never started")
                              interrupted = Date()
                              kill(process.processIdentifier, SIGINT)
                            })
    let seconds = interrupted.map { Date().timeIntervalSince($0) } ?? 99
    #expect(run.status != 0, "\(run.stdout)\(run.stderr)")
    #expect(seconds < 2, "duet took \(seconds) s to end after Ctrl-C")
    #expect(entryFiles().isEmpty, "left \(entryFiles())")
  }
}

/// A server that accepts connections and never reads or answers a byte; it
/// counts the connections, so a test can act once duet is waiting on one.
final class WedgedServer: @unchecked Sendable {
  let fd: Int32
  let port: Int
  private let lock = NSLock()
  private var connections: [Int32] = []
  private let done = DispatchGroup()

  init() throws {
    let listening = socket(AF_INET, NginxServer.streamSocket, 0)
    var address = NginxServer.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) == 0 && getsockname(listening, $0, &length) == 0 }
    }
    guard listening >= 0, bound, listen(listening, 256) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
    fd = listening
    port = Int(UInt16(bigEndian: address.sin_port))
    done.enter()
    DispatchQueue.global().async { [self] in
      while case let connection = accept(fd, nil, nil), connection >= 0 {
        lock.withLock { connections.append(connection) }
      }
      done.leave()
    }
  }

  var url: String { "http://127.0.0.1:\(port)/cache" }

  /// How many connections it has taken so far.
  var accepted: Int { lock.withLock { connections.count } }

  /// Stops accepting (a shutdown wakes the blocked accept) and closes every connection.
  func stop() {
    shutdown(fd, Int32(SHUT_RDWR))
    done.wait()
    close(fd)
    lock.withLock { connections.forEach { close($0) } }
  }
}
