import Foundation
import Testing
@testable import DuetCache
@testable import DuetSupport

/// Outputs and entries a hostile or unlucky tree holds: links that climb
/// through other links, links out of the tree that are already in place,
/// names an entry cannot carry.
@Suite("The content-addressed store against hostile outputs")
struct CacheHostileTests {
  func entry(_ outputs: [ActionEntry.Output]) -> ActionEntry {
    ActionEntry(key: String(repeating: "e", count: 64), lane: "l", duetVersion: "0", strict: false, partial: false, outputs: outputs, log: nil)
  }

  func resolved(_ path: String) -> String? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }

  /// A link whose `..` climb through another restored link (`b -> .`, then
  /// `a -> b/b/../../..`) stays inside the tree when read as text but points
  /// above it on disk: it is never made.
  @Test func aLinkClimbingThroughAnotherLinkIsNotRestored() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    let climbing = entry([.link(path: "build/a", target: "b/b/../../.."), .link(path: "build/b", target: ".")])
    let result = OutputRestore.restore(climbing, declared: ["build"], root: tree.url, store: store)
    if case .restored = result {
      let target = resolved(tree.url.appendingPathComponent("build/a").path) ?? "?"
      Issue.record("made build/a, which resolves to \(target), outside \(tree.url.path)")
    }
    #expect(!OutputRestore.staysInside("b/../..", from: "build/a"))
    #expect(!OutputRestore.staysInside("b/b/../../..", from: "build/a"))
    // What stays inside on any disk is still fine.
    #expect(OutputRestore.staysInside("../lib/x", from: "build/sub/a"))
    #expect(OutputRestore.staysInside("./tool", from: "build/a"))
    #expect(OutputRestore.staysInside("sub/tool", from: "build/a"))
  }

  /// A link out of the tree (a Python venv's `bin/python -> /usr/bin/python3`)
  /// that is already on disk as the entry records it needs no writing, so it
  /// does not stop the lane being served; a missing one is still never made.
  @Test func anOutsideLinkAlreadyInPlaceIsNoReasonToRun() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    try tree.write("venv/lib/site.py", "x = 1\n")
    symlink("/usr/bin/env", tree.url.appendingPathComponent("venv/python").path)
    let found = OutputFiles.capture(["venv"], root: tree.url, store: store)
    #expect(found.problems.isEmpty)
    let venv = entry(found.outputs)
    #expect(OutputRestore.restore(venv, declared: ["venv"], root: tree.url, store: store) == .restored(files: 0))
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("venv/lib/site.py"))
    #expect(OutputRestore.restore(venv, declared: ["venv"], root: tree.url, store: store) == .restored(files: 1))
    unlink(tree.url.appendingPathComponent("venv/python").path)
    guard case .cannot(let why) = OutputRestore.restore(venv, declared: ["venv"], root: tree.url, store: store) else {
      Issue.record("made a link out of the tree"); return
    }
    #expect(why.text.contains("outside the tree"), "\(why)")
    #expect(systemDisk.linkTarget(tree.url.appendingPathComponent("venv/python").path) == nil)
  }

  /// An output whose name holds a line break cannot be named by an entry
  /// (reading one refuses it): capture says so instead of storing an entry
  /// that no run can ever read.
  @Test func anOutputNameAnEntryCannotHoldIsAProblem() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    try tree.write("build/a\nb", "x")
    let found = OutputFiles.capture(["build"], root: tree.url, store: store)
    #expect(found.problems.count == 1, "\(found.problems)")
    #expect(found.problems.first?.text.contains("build/a\\nb") == true, "\(found.problems)")
  }
}

/// `duet cache prune` beside a running verify.
@Suite("Pruning the store while it is in use")
struct CachePruneWhileInUseTests {
  /// Prune removes what interrupted writes left in the store's `tmp`, but not
  /// a file another verify is writing right now (a blob being stored or
  /// downloaded): that verify would lose the blob.
  @Test func pruneKeepsATemporaryFileBeingWritten() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    let (fresh, freshPath) = try store.temporaryFile()
    close(fresh)
    let (old, oldPath) = try store.temporaryFile()
    close(old)
    var times = [timeval(tv_sec: 1_600_000_000, tv_usec: 0), timeval(tv_sec: 1_600_000_000, tv_usec: 0)]
    utimes(oldPath, &times)
    _ = StoreMaintenance.prune(store, maxBytes: 1 << 30)
    #expect(FileManager.default.fileExists(atPath: freshPath))
    #expect(!FileManager.default.fileExists(atPath: oldPath))
    // The verify finishes its blob: it lands under its name.
    let digest = try ContentStore.digest(ofFileAt: freshPath)
    try store.adopt(freshPath, as: digest)
    #expect(store.contains(digest))
  }
}

/// A remote cache behind something that answers 200 with a web page for every
/// request (a proxy's login page, a misconfigured path).
@Suite("A remote cache answering garbage")
struct RemoteGarbageTests {
  /// Answers every GET with the same bytes.
  struct PageServer: RemoteTransport {
    var page: [UInt8]
    func get(_ requests: [RemoteGet]) -> [RemoteResult] {
      requests.map { request in
        FileManager.default.createFile(atPath: request.destination, contents: Data(page))
        return .done(bytes: page.count)
      }
    }
    func put(_ requests: [RemotePut]) -> [RemoteResult] { requests.map { _ in .failed("read-only") } }
    func head(_ keys: [RemoteKey]) -> [RemoteResult] { keys.map { _ in .missing } }
  }

  /// Forty lanes' entries answered with an HTML page: no entry is served, and
  /// the run hears of it once, not once per lane.
  @Test func aWebPageForEveryEntryIsOneWarning() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    let page = Array("<!DOCTYPE html><html><body>Sign in</body></html>".utf8)
    let remote = RemoteCache(transport: PageServer(page: page), name: "https://cache.example", upload: false, signingKey: nil, store: store)
    var keys: [String: String] = [:]
    for lane in 0..<40 { keys[Digest.sha256("lane \(lane)")] = "lane\(lane)" }
    #expect(remote.entries(keys).isEmpty)
    let warnings = remote.takeWarnings()
    #expect(warnings.count == 1, "\(warnings)")
    #expect(warnings.first?.contains("remote cache https://cache.example") == true, "\(warnings)")
  }
}
