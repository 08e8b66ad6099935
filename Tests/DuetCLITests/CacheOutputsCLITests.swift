import Foundation
import Testing

/// Issue 37: a pass carries its products. Each test is a tree on which an
/// earlier duet served a verdict without the files it stood for.
@Suite("A pass carries its outputs, end to end")
struct CacheOutputsCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: kit
        sh: mkdir -p build/Kit && cp src/kit.txt build/Kit/Info.plist && printf '#!/bin/sh\\necho kit\\n' > build/Kit/tool && chmod 755 build/Kit/tool && ln -sf Info.plist build/Kit/Current && echo assembled kit
        inputs: ["src/kit.txt"]
        outputs: [build/Kit]
      - name: app
        sh: test -x build/Kit/tool && cat build/Kit/Info.plist src/app.txt
        needs: [kit]
        inputs: ["src/app.txt"]
    """

  func tree() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src/kit.txt", "kit v1\n")
    try tree.write("src/app.txt", "app v1\n")
    return tree
  }

  func mode(_ tree: FixtureTree, _ path: String) -> UInt32 {
    var info = stat()
    lstat(tree.url.appendingPathComponent(path).path, &info)
    return UInt32(info.st_mode & 0o7777)
  }

  /// `git clean -fdx` (here: the output folder removed) after a pass: the
  /// cached lane restores its outputs byte for byte with their modes and
  /// link, so the lane that reads them passes, as a `--no-cache` run does.
  @Test func aCachedLaneRestoresItsOutputs() throws {
    let tree = try tree()
    #expect(try tree.duet("verify").status == 0)
    let plist = try tree.read("build/Kit/Info.plist"), tool = try tree.read("build/Kit/tool")
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("build"))
    try tree.write("src/app.txt", "app v2\n")
    let run = try tree.duet("verify")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("✓ kit cached (restored 3 files)"), "\(run.stdout)")
    #expect(try tree.read("build/Kit/Info.plist") == plist)
    #expect(try tree.read("build/Kit/tool") == tool)
    #expect(mode(tree, "build/Kit/tool") == 0o755)
    #expect(OutputLink.target(tree.url.appendingPathComponent("build/Kit/Current").path) == "Info.plist")
    // An output edited by hand is put back too; an intact one is left alone.
    try tree.write("build/Kit/Info.plist", "edited\n")
    let again = try tree.duet("verify")
    #expect(again.stdout.contains("✓ kit cached (restored 1 file)"), "\(again.stdout)")
    #expect(try tree.read("build/Kit/Info.plist") == plist)
    #expect(try tree.duet("verify").stdout.contains("✓ kit cached\n"))
  }

  /// A lane that exits 0 without writing a declared output fails, naming the
  /// path, and its dependents are skipped; nothing of it is cached.
  @Test func aMissingDeclaredOutputFailsTheLane() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: pack
          sh: mkdir -p dist && echo packed
          inputs: [src.txt]
          outputs: [dist/app.tar, dist]
        - name: upload
          sh: cat dist/app.tar
          needs: [pack]
      """)
    try tree.write("src.txt", "s\n")
    let run = try tree.duet("verify")
    #expect(run.status == 1)
    #expect(run.stdout.contains("✗ pack"), "\(run.stdout)")
    #expect(run.stdout.contains("missing output: dist/app.tar"), "\(run.stdout)")
    #expect(run.stdout.contains("did not write its declared output dist/app.tar"), "\(run.stdout)")
    #expect(run.stdout.contains("upload skipped (needs pack)"), "\(run.stdout)")
    #expect(run.stdout.contains("duet verify: FAIL (1 failed: pack; 1 skipped)"), "\(run.stdout)")
    #expect(try tree.duet("verify").status == 1)
  }

  /// With its outputs gone and the store emptied (`duet cache prune --max-size 0`),
  /// the lane runs and says why; `duet logs` of a cached lane shows the log of
  /// the run that earned the pass.
  @Test func aLaneWhoseOutputsCannotComeBackRuns() throws {
    let tree = try tree()
    #expect(try tree.duet("verify").status == 0)
    _ = try tree.duet("verify")
    let logs = try tree.duet("logs", "kit")
    #expect(logs.stdout == "assembled kit\n", "\(logs.stdout)\(logs.stderr)")
    let pruned = try tree.duet("cache", "prune", "--max-size", "0")
    #expect(pruned.stdout.contains("removed"), "\(pruned.stdout)")
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("build"))
    let dry = try tree.duet("verify", "--dry-run")
    #expect(dry.stdout.contains("no cache entry holds its pass"), "\(dry.stdout)")
    let run = try tree.duet("verify")
    #expect(run.status == 0, "\(run.stdout)")
    #expect(!run.stdout.contains("kit cached"), "\(run.stdout)")
    #expect(tree.exists("build/Kit/tool"))
  }

  /// `duet cache verify` hashes every blob again: a damaged one is named,
  /// removed, and the lane that needed it runs instead of restoring it.
  @Test func cacheVerifyFindsDamagedBlobs() throws {
    let tree = try tree()
    #expect(try tree.duet("verify").status == 0)
    let stats = try tree.duet("cache", "stats", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
    #expect(object?["schemaVersion"] as? Int != nil)
    #expect((object?["blobs"] as? Int ?? 0) >= 3, "\(stats.stdout)")
    #expect(try tree.duet("cache", "verify").status == 0)
    // Damage the blob that holds Info.plist.
    let cas = tree.url.appendingPathComponent(".duet/cache/cas")
    let damaged = try FileManager.default.subpathsOfDirectory(atPath: cas.path).map { cas.appendingPathComponent($0) }
      .first { (try? String(contentsOf: $0, encoding: .utf8)) == "kit v1\n" }
    guard let damaged else { Issue.record("no blob holds Info.plist"); return }
    chmod(damaged.path, 0o644)
    try Data("kit v0\n".utf8).write(to: damaged)
    let verify = try tree.duet("cache", "verify")
    #expect(verify.status == 1)
    #expect(verify.stdout.contains("damaged: \(damaged.lastPathComponent)"), "\(verify.stdout)")
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("build"))
    let run = try tree.duet("verify")
    #expect(run.status == 0)
    #expect(run.stdout.contains("its outputs cannot be restored") || !run.stdout.contains("kit cached"), "\(run.stdout)")
    #expect(try tree.read("build/Kit/Info.plist") == "kit v1\n")
  }

  /// A reinstalled, byte-identical duet (another path, another time) keeps a
  /// built-in lane's pass: duet is known by its bytes, not its file's time.
  @Test func aReinstalledIdenticalDuetKeepsBuiltinPasses() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: tokens
          run: design-tokens --check
          inputs: [parity/notes.txt]
      """)
    try tree.write("parity/notes.txt", "n\n")
    let installs = try FixtureTree()
    func install(_ name: String, modified: Date) throws -> URL {
      let target = installs.url.appendingPathComponent("\(name)/duet")
      try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: duetBinary.resolvingSymlinksInPath(), to: target)
      try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: target.path)
      return target
    }
    let first = try install("a", modified: Date(timeIntervalSince1970: 1_700_000_000))
    let second = try install("b", modified: Date(timeIntervalSince1970: 1_800_000_000))
    let run = try runBinary(["verify"], in: tree.url, binary: first)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let again = try runBinary(["verify"], in: tree.url, binary: second)
    #expect(again.stdout.contains("✓ tokens cached"), "\(again.stdout)")
    // Other bytes are another duet: its built-in passes are not reused.
    let handle = try FileHandle(forWritingTo: second)
    handle.seekToEndOfFile()
    handle.write(Data([0]))
    try handle.close()
    let rebuilt = try runBinary(["verify", "--dry-run"], in: tree.url, binary: second)
    #expect(rebuilt.stdout.contains("duet changed"), "\(rebuilt.stdout)")
  }
}

/// A link's target text, for the tests.
enum OutputLink {
  static func target(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// The store's folders are guarded as `.duet` is: a link planted there is refused.
@Suite("The content-addressed store's folders")
struct CacheFolderGuardCLITests {
  /// `.duet/cache` or `.duet/cache/cas` replaced by a link to another folder:
  /// verify refuses (exit 2, naming it) and writes nothing there.
  @Test func aLinkedStoreFolderIsRefused() throws {
    for folder in [".duet/cache", ".duet/cache/cas"] {
      let tree = try FixtureTree(manifest: CacheOutputsCLITests.manifest)
      try tree.write("src/kit.txt", "kit v1\n")
      try tree.write("src/app.txt", "app v1\n")
      let elsewhere = try FixtureTree()
      try FileManager.default.createDirectory(at: tree.url.appendingPathComponent(folder).deletingLastPathComponent(), withIntermediateDirectories: true)
      symlink(elsewhere.url.path, tree.url.appendingPathComponent(folder).path)
      let run = try tree.duet("verify")
      #expect(run.status == 2, "\(folder): \(run.stdout)\(run.stderr)")
      #expect(run.stderr.contains("\(folder)") && run.stderr.contains("symbolic link"), "\(run.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty)
      #expect(try tree.duet("cache", "stats").status == 1)
    }
  }
}

/// The hostile review of issue 37: a lane whose inputs include a need's
/// outputs (the app that declares the XCFramework it links).
@Suite("A consumer of a need's outputs is cached as its need is")
struct ConsumerOfOutputsCLITests {
  /// After a pass, nothing changed: both cached (the consumer ran again, its
  /// inputs having moved under it). After `rm -rf build`: the need restores and
  /// the consumer is cached too. After an edit of the need's source: both run
  /// once, then both are cached.
  @Test func aConsumerOfOutputsIsNotRunTwice() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: gen
          sh: mkdir -p build && cat gen.src > build/gen.txt
          inputs: [gen.src]
          outputs: [build/gen.txt]
        - name: use
          sh: cat build/gen.txt use.txt
          needs: [gen]
          inputs: [build/gen.txt, use.txt]
      """)
    try tree.write("gen.src", "v1\n")
    try tree.write("use.txt", "u\n")
    #expect(try tree.duet("verify").stdout.contains("PASS (2 passed)"))
    let second = try tree.duet("verify")
    #expect(second.stdout.contains("PASS (2 cached)"), "\(second.stdout)")
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("build"))
    let restored = try tree.duet("verify")
    #expect(restored.stdout.contains("gen cached (restored 1 file)"), "\(restored.stdout)")
    #expect(restored.stdout.contains("PASS (2 cached)"), "\(restored.stdout)")
    try tree.write("gen.src", "v2\n")
    #expect(try tree.duet("verify").stdout.contains("PASS (2 passed)"))
    let after = try tree.duet("verify")
    #expect(after.stdout.contains("PASS (2 cached)"), "\(after.stdout)")
  }
}
