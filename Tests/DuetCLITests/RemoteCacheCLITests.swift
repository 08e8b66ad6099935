@testable import DuetCache
@testable import DuetFuzzSupport
import Foundation
import Testing

/// Issue 37: a remote cache shared by CI and laptops, on a real nginx with
/// WebDAV (the Bazel HTTP protocol: `/ac/<sha256>`, `/cas/<sha256>`). One
/// clone uploads; another, in another folder, is served its passes with the
/// outputs; nothing the server says can change a verdict or write outside the
/// tree; no secret reaches output, `.duet/` or the history.
@Suite("The remote cache on nginx, end to end", .serialized)
struct RemoteCacheCLITests {
  static let password = "pa55-in-url-9d1"
  static let token = "bearer-tok-7f3e"
  static let key = "signing-key-41c"

  /// A clone of the outputs fixture in a folder of its own, as a CI runner or laptop has.
  func clone() throws -> FixtureTree {
    let tree = try FixtureTree()
    let fixture = InstallCLITests.repository.appendingPathComponent("Tests/Fixtures/docs/outputs")
    for path in try FileManager.default.subpathsOfDirectory(atPath: fixture.path) {
      let source = fixture.appendingPathComponent(path)
      var isFolder: ObjCBool = false
      FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder)
      if isFolder.boolValue { continue }
      try tree.write(path, try String(contentsOf: source, encoding: .utf8))
    }
    chmod(tree.url.appendingPathComponent("scripts/assemble-kit.sh").path, 0o755)
    return tree
  }

  func environment(_ server: NginxServer, location: String = "cache", upload: Bool = false, key: String? = nil) -> [String: String] {
    var environment = ["DUET_REMOTE_CACHE": server.url(location)]
    if upload { environment["DUET_REMOTE_CACHE_UPLOAD"] = "1" }
    if let key { environment["DUET_REMOTE_CACHE_KEY"] = key }
    return environment
  }

  /// The action entries on the server, decoded by the REAPI definitions
  /// (BuildGrid's `remote_execution_pb2`): one line per output, link and log,
  /// each blob checked present in the server's CAS.
  func decodedEntries(_ server: NginxServer) throws -> [String] {
    let python = InstallCLITests.repository.appendingPathComponent(".build/venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else {
      Issue.record("no .build/venv: run tools/install-deps test (it installs protobuf and BuildGrid's REAPI modules)")
      return []
    }
    let script = """
      import sys, os, glob
      import google.protobuf, google.api, google.rpc, google.longrunning
      import buildgrid
      sys.path.append(os.path.join(os.path.dirname(buildgrid.__file__), '_protos'))
      from build.bazel.remote.execution.v2 import remote_execution_pb2 as r
      root = sys.argv[1]
      for path in sorted(glob.glob(root + '/ac/*')):
          result = r.ActionResult()
          result.ParseFromString(open(path, 'rb').read())
          cas = lambda d: os.path.getsize(os.path.join(root, 'cas', d.hash)) == d.size_bytes
          for f in result.output_files:
              print('file', f.path, f.is_executable, oct(f.node_properties.unix_mode.value), cas(f.digest))
          for s in result.output_symlinks:
              print('link', s.path, s.target)
          print('log', cas(result.stdout_digest), 'exit', result.exit_code, result.execution_metadata.worker)
      """
    let run = try shell("\(python) -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))' \(server.stored("").path)", in: InstallCLITests.repository)
    #expect(run.status == 0, "\(run.output)")
    return run.output.split(separator: "\n").map(String.init).sorted()
  }

  /// One clone uploads; a fresh clone elsewhere (read-only) is served both
  /// lanes `cached` with the outputs byte-equal and the log of the pass, and
  /// writes nothing to the server. Every uploaded entry is an ActionResult
  /// whose blobs are all on the server.
  @Test func aPassTravelsToAnotherClone() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    let ci = try clone()
    let first = try ci.duet("verify", environment: environment(server, upload: true))
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    #expect(first.stderr.isEmpty, "\(first.stderr)")
    let entries = try decodedEntries(server)
    #expect(entries == [
      "file build/Kit.xcframework/Info.plist False 0o644 True",
      "file build/Kit.xcframework/ios-arm64/Kit.framework/Kit False 0o644 True",
      "link build/Kit.xcframework/Current ios-arm64/Kit.framework",
      "log True exit 0 duet 0.1.0",
      "log True exit 0 duet 0.1.0",
    ], "\(entries)")
    let puts = server.requests().filter { $0.method == "PUT" }.count
    let laptop = try clone()
    let served = try laptop.duet("verify", environment: environment(server))
    #expect(served.status == 0, "\(served.stdout)\(served.stderr)")
    #expect(served.stdout.contains("✓ kit cached (restored 3 files)"), "\(served.stdout)")
    #expect(served.stdout.contains("duet verify: PASS (2 cached)"), "\(served.stdout)")
    for path in ["build/Kit.xcframework/Info.plist", "build/Kit.xcframework/ios-arm64/Kit.framework/Kit"] {
      #expect(try laptop.read(path) == ci.read(path))
    }
    #expect(OutputLink.target(laptop.url.appendingPathComponent("build/Kit.xcframework/Current").path) == "ios-arm64/Kit.framework")
    #expect(try laptop.duet("logs", "kit").stdout == "assembled build/Kit.xcframework\n")
    #expect(server.requests().filter { $0.method == "PUT" }.count == puts, "a read-only run wrote to the server")
    let dry = try clone().duet("verify", "--dry-run", environment: environment(server))
    #expect(dry.stdout.contains("a pass with these inputs is in the remote cache"), "\(dry.stdout)")
  }

  /// With `DUET_REMOTE_CACHE_KEY` set, entries are signed; a reader with the
  /// key is served signed entries only: one uploaded without the key, or with
  /// another, is never served (one warning), and the lane runs and passes.
  @Test func unsignedOrWronglySignedEntriesAreNotServed() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    #expect(try clone().duet("verify", environment: environment(server, upload: true)).status == 0)
    let reader = try clone()
    let unsigned = try reader.duet("verify", environment: environment(server, key: Self.key))
    #expect(unsigned.status == 0, "\(unsigned.stdout)")
    #expect(!unsigned.stdout.contains("cached"), "\(unsigned.stdout)")
    #expect(unsigned.stderr.components(separatedBy: "not signed with DUET_REMOTE_CACHE_KEY").count == 2, "\(unsigned.stderr)")

    try FileManager.default.removeItem(at: server.stored("ac"))
    #expect(try clone().duet("verify", environment: environment(server, upload: true, key: "another-key")).status == 0)
    let wrong = try clone().duet("verify", environment: environment(server, key: Self.key))
    #expect(!wrong.stdout.contains("cached"), "\(wrong.stdout)")
    #expect(wrong.stderr.contains("not signed with DUET_REMOTE_CACHE_KEY"), "\(wrong.stderr)")

    try FileManager.default.removeItem(at: server.stored("ac"))
    #expect(try clone().duet("verify", environment: environment(server, upload: true, key: Self.key)).status == 0)
    let signed = try clone().duet("verify", environment: environment(server, key: Self.key))
    #expect(signed.stdout.contains("duet verify: PASS (2 cached)"), "\(signed.stdout)\(signed.stderr)")
  }

  /// A blob with a flipped byte, or another blob's bytes under its name, is
  /// refused when it arrives (a warning naming the remote cache); the lane runs
  /// and writes the right bytes.
  @Test func aBlobThatIsNotItsNameIsRefused() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    let ci = try clone()
    #expect(try ci.duet("verify", environment: environment(server, upload: true)).status == 0)
    let blobs = try FileManager.default.contentsOfDirectory(atPath: server.stored("cas").path).map { server.stored("cas/\($0)") }
    guard let plist = blobs.first(where: { (try? String(contentsOf: $0, encoding: .utf8)) == "Kit 1.0\n" }) else {
      Issue.record("no blob holds Info.plist"); return
    }
    try Data("Kit 1.1\n".utf8).write(to: plist)
    let flipped = try clone()
    let run = try flipped.duet("verify", environment: environment(server))
    #expect(run.status == 0, "\(run.stdout)")
    #expect(run.stderr.contains("remote cache"), "\(run.stderr)")
    #expect(run.stdout.contains("its outputs cannot be restored") || !run.stdout.contains("kit cached"), "\(run.stdout)")
    #expect(try flipped.read("build/Kit.xcframework/Info.plist") == "Kit 1.0\n")
    // Another blob's bytes, whole, under this name.
    let other = try #require(blobs.first { $0 != plist })
    try FileManager.default.removeItem(at: plist)
    try FileManager.default.copyItem(at: other, to: plist)
    let swapped = try clone()
    #expect(try swapped.duet("verify", environment: environment(server)).status == 0)
    #expect(try swapped.read("build/Kit.xcframework/Info.plist") == "Kit 1.0\n")
  }

  /// An entry naming `../` or an absolute path (well-formed, uploaded by
  /// someone else) is refused whole: nothing is written outside the tree.
  @Test func anEntryNamingAPathOutsideTheTreeIsRefused() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    #expect(try clone().duet("verify", environment: environment(server, upload: true)).status == 0)
    let entries = try FileManager.default.contentsOfDirectory(atPath: server.stored("ac").path).map { server.stored("ac/\($0)") }
    let outside = try FixtureTree()
    let originals = try entries.map { try Data(contentsOf: $0) }
    for hostile in ["../escaped.txt", outside.url.appendingPathComponent("escaped.txt").path, "build/Kit.xcframework/../../../escaped.txt"] {
      for (entryFile, original) in zip(entries, originals) {
        var entry = try ActionEntry.decode([UInt8](original))
        guard case .file(_, let digest, let mode)? = entry.outputs.first(where: { if case .file = $0 { return true } else { return false } }) else { continue }
        entry.outputs.append(.file(path: hostile, digest: digest, mode: mode))
        try Data(entry.encoded()).write(to: entryFile)
      }
      let reader = try clone()
      let run = try reader.duet("verify", environment: environment(server))
      #expect(run.status == 0, "\(run.stdout)")
      #expect(!run.stdout.contains("kit cached"), "\(hostile): \(run.stdout)")
      #expect(run.stderr.contains("remote cache"), "\(hostile): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: reader.url.deletingLastPathComponent().appendingPathComponent("escaped.txt").path))
      #expect(!FileManager.default.fileExists(atPath: outside.url.appendingPathComponent("escaped.txt").path))
    }
  }

  /// A server that is down, answers 500, is slow, or dies during the run
  /// changes no verdict: one warning containing `remote cache`, the lanes run.
  @Test func aFailingServerIsAWarningNeverAVerdict() throws {
    let server = try NginxServer.start(slowBytesPerSecond: 1)
    for location in ["fail", "slow"] {
      let run = try clone().duet("verify", environment: environment(server, location: location, upload: true))
      #expect(run.status == 0, "\(location): \(run.stdout)\(run.stderr)")
      #expect(run.stdout.contains("duet verify: PASS (2 passed)"), "\(location): \(run.stdout)")
      #expect(run.stderr.components(separatedBy: "remote cache").count >= 2, "\(location): \(run.stderr)")
    }
    // Served slowly from a store that holds the entries: still a pass, on time.
    #expect(try clone().duet("verify", environment: environment(server, upload: true)).status == 0)
    let started = Date()
    let slow = try clone().duet("verify", environment: environment(server, location: "slow"))
    #expect(slow.status == 0, "\(slow.stdout)\(slow.stderr)")
    #expect(Date().timeIntervalSince(started) < 60)
    // Killed during the run: the lane that runs first stops the server, and
    // waits until it is gone (exited, or a zombie; at most 10 s), not a time.
    let dying = try clone()
    try dying.write("lanes/manifest.yaml", try dying.read("lanes/manifest.yaml").replacingOccurrences(
      of: "sh: scripts/assemble-kit.sh", with: "sh: kill \(server.pid) && { i=0; while [ $i -lt 1000 ] && ps -o stat= -p \(server.pid) | grep -q '^[^Z]'; "
        + "do sleep 0.01; i=$((i+1)); done; } && scripts/assemble-kit.sh"))
    let killed = try dying.duet("verify", environment: environment(server, upload: true))
    server.stop()
    #expect(killed.status == 0, "\(killed.stdout)\(killed.stderr)")
    #expect(killed.stderr.contains("remote cache"), "\(killed.stderr)")
    let down = try clone().duet("verify", environment: environment(server, upload: true))
    #expect(down.status == 0)
    #expect(down.stderr.components(separatedBy: "remote cache").count == 2, "one warning: \(down.stderr)")
  }

  /// The password in the URL, the bearer token and the signing key appear in
  /// no output (text or JSON), no file under `.duet/` (the history included),
  /// and a bad `--remote-cache` is a usage error that shows no password.
  @Test func noSecretLeaves() throws {
    let server = try NginxServer.start(bearerToken: Self.token, basicUser: "cacheuser", basicPassword: Self.password)
    defer { server.stop() }
    let tree = try clone()
    let basicURL = server.url("basic").replacingOccurrences(of: "http://", with: "http://cacheuser:\(Self.password)@")
    var outputs: [String] = []
    let basic = try tree.duet("verify", "--json", "--remote-cache", basicURL,
                              environment: ["DUET_REMOTE_CACHE_UPLOAD": "1", "DUET_REMOTE_CACHE_KEY": Self.key])
    #expect(basic.status == 0, "\(basic.stdout)\(basic.stderr)")
    outputs += [basic.stdout, basic.stderr]
    let bearer = try clone()
    let viaToken = try bearer.duet("verify", environment: ["DUET_REMOTE_CACHE": server.url("bearer"), "DUET_REMOTE_CACHE_TOKEN": Self.token,
                                                           "DUET_REMOTE_CACHE_KEY": Self.key])
    #expect(viaToken.stdout.contains("PASS (2 cached)"), "\(viaToken.stdout)\(viaToken.stderr)")
    outputs += [viaToken.stdout, viaToken.stderr]
    let wrongToken = try clone().duet("verify", environment: ["DUET_REMOTE_CACHE": server.url("bearer"), "DUET_REMOTE_CACHE_TOKEN": "x" + Self.token])
    #expect(wrongToken.stderr.contains("remote cache"), "\(wrongToken.stderr)")
    outputs += [wrongToken.stdout, wrongToken.stderr]
    let bad = try tree.duet("verify", "--remote-cache", "ftp://cacheuser:\(Self.password)@example.com/x")
    #expect(bad.status == 2, "\(bad.stderr)")
    outputs += [bad.stdout, bad.stderr]
    for run in ["history", "history --json", "report --html .duet/r.html"] {
      let shown = try tree.duet(arguments: run.split(separator: " ").map(String.init))
      outputs += [shown.stdout, shown.stderr]
    }
    for secret in [Self.password, Self.token, Self.key] {
      for (offset, text) in outputs.enumerated() { #expect(!text.contains(secret), "output \(offset) holds a secret: \(text)") }
      for folder in [tree, bearer] {
        let grep = try shell("grep -rla -- '\(secret)' .duet || true", in: folder.url)
        #expect(grep.output.isEmpty, "\(secret) in \(grep.output)")
      }
    }
  }
}
