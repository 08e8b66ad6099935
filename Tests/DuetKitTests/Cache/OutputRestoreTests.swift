import Foundation
import Testing
@testable import DuetCache
@testable import DuetSupport

/// The local store and what a cached lane gets back: outputs captured into
/// the store, restored byte for byte with their modes, never through a link,
/// over a folder, or outside the lane's declared outputs.
@Suite("Outputs in the content-addressed store")
struct OutputRestoreTests {
  struct Fixture {
    let tree = try! TemporaryFolder()
    var root: URL { tree.url }
    var store: ContentStore { ContentStore(folder: root.appendingPathComponent(".duet/cache")) }

    func mode(_ path: String) -> UInt32 {
      var info = stat()
      lstat(root.appendingPathComponent(path).path, &info)
      return UInt32(info.st_mode & 0o7777)
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: root.appendingPathComponent(path).path) }
  }

  /// A declared folder is walked: files with their modes, links by their
  /// target; a missing declared path is named.
  @Test func captureFindsFilesLinksAndMissingPaths() throws {
    let fixture = Fixture()
    try fixture.tree.write("build/a.txt", "a")
    try fixture.tree.write("build/sub/tool", "#!/bin/sh\n")
    chmod(fixture.root.appendingPathComponent("build/sub/tool").path, 0o755)
    symlink("a.txt", fixture.root.appendingPathComponent("build/link").path)
    let found = OutputFiles.capture(["build", "dist/app.zip"], root: fixture.root, store: fixture.store)
    #expect(found.missing == ["dist/app.zip"])
    #expect(found.problems == [])
    #expect(found.outputs.map(\.path) == ["build/a.txt", "build/link", "build/sub/tool"])
    guard case .file(_, let digest, let mode) = found.outputs[2] else { Issue.record("not a file"); return }
    #expect(mode == 0o755)
    #expect(fixture.store.contains(digest))
  }

  /// Deleted, edited and re-moded outputs come back as they were; an
  /// unchanged one is not written again.
  @Test func restoreBringsBackWhatChanged() throws {
    let fixture = Fixture()
    try fixture.tree.write("build/a.txt", "alpha")
    try fixture.tree.write("build/b.txt", "beta")
    try fixture.tree.write("build/c.txt", "gamma")
    chmod(fixture.root.appendingPathComponent("build/c.txt").path, 0o750)
    symlink("a.txt", fixture.root.appendingPathComponent("build/link").path)
    let found = OutputFiles.capture(["build"], root: fixture.root, store: fixture.store)
    let entry = ActionEntry(key: String(repeating: "e", count: 64), lane: "l", duetVersion: "0", strict: false, partial: false,
                            outputs: found.outputs, log: nil)
    try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("build/a.txt"))
    try fixture.tree.write("build/b.txt", "BETA")
    chmod(fixture.root.appendingPathComponent("build/c.txt").path, 0o644)
    unlink(fixture.root.appendingPathComponent("build/link").path)
    #expect(OutputRestore.restore(entry, declared: ["build"], root: fixture.root, store: fixture.store) == .restored(files: 4))
    #expect(fixture.bytes("build/a.txt") == Data("alpha".utf8))
    #expect(fixture.bytes("build/b.txt") == Data("beta".utf8))
    #expect(fixture.mode("build/c.txt") == 0o750)
    #expect(systemDisk.linkTarget(fixture.root.appendingPathComponent("build/link").path) == "a.txt")
    #expect(OutputRestore.restore(entry, declared: ["build"], root: fixture.root, store: fixture.store) == .restored(files: 0))
    // The whole folder gone (git clean -fdx) comes back too.
    try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("build"))
    #expect(OutputRestore.restore(entry, declared: ["build"], root: fixture.root, store: fixture.store) == .restored(files: 4))
  }

  /// Never through a link or over something that is not a regular file, never
  /// outside the declared outputs, never a link that points out of the tree;
  /// a blob the store lacks (or holds damaged) restores nothing wrong.
  @Test func restoreRefusesWhatItMustNotWrite() throws {
    let fixture = Fixture()
    let outside = try TemporaryFolder()
    try fixture.tree.write("build/a.txt", "alpha")
    let found = OutputFiles.capture(["build"], root: fixture.root, store: fixture.store)
    let entry = ActionEntry(key: String(repeating: "e", count: 64), lane: "l", duetVersion: "0", strict: false, partial: false,
                            outputs: found.outputs, log: nil)
    // A link where the folder was: nothing is written through it.
    try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("build"))
    symlink(outside.url.path, fixture.root.appendingPathComponent("build").path)
    guard case .cannot(let why) = OutputRestore.restore(entry, declared: ["build"], root: fixture.root, store: fixture.store) else {
      Issue.record("restored through a link"); return
    }
    #expect(why.text.contains("symbolic link"), "\(why)")
    #expect(!FileManager.default.fileExists(atPath: outside.url.appendingPathComponent("a.txt").path))
    unlink(fixture.root.appendingPathComponent("build").path)
    // A folder where the file was.
    try FileManager.default.createDirectory(at: fixture.root.appendingPathComponent("build/a.txt"), withIntermediateDirectories: true)
    #expect(OutputRestore.restore(entry, declared: ["build"], root: fixture.root, store: fixture.store) != .restored(files: 1))
    try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("build"))
    // Paths outside the lane's outputs.
    var stray = entry
    stray.outputs.append(.file(path: ".git/hooks/pre-push", digest: BlobDigest(hash: String(repeating: "a", count: 64), size: 1), mode: 0o755))
    #expect(OutputRestore.restore(stray, declared: ["build"], root: fixture.root, store: fixture.store)
            == .cannot("its cache entry names .git/hooks/pre-push, outside the lane's outputs"))
    // A link out of the tree.
    var escaping = entry
    escaping.outputs = [.link(path: "build/out", target: "../../etc")]
    #expect(OutputRestore.restore(escaping, declared: ["build"], root: fixture.root, store: fixture.store) != .restored(files: 1))
    #expect(!OutputRestore.staysInside("/etc", from: "build/x"))
    #expect(OutputRestore.staysInside("../a.txt", from: "build/x"))
    // A blob damaged on disk: detected while copying, nothing placed, the blob dropped.
    guard case .file(_, let digest, _) = entry.outputs[0] else { return }
    let blob = fixture.store.blobPath(digest.hash)
    chmod(blob, 0o644)
    try Data("ALPHA".utf8).write(to: URL(fileURLWithPath: blob))
    guard case .cannot = OutputRestore.restore(entry, declared: ["build"], root: fixture.root, store: fixture.store) else {
      Issue.record("restored a damaged blob"); return
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.root.appendingPathComponent("build/a.txt").path))
    #expect(!fixture.store.contains(digest))
    #expect(OutputRestore.restore(entry, declared: ["build"], root: fixture.root, store: fixture.store) == .cannot("the cache lacks 1 of its output file(s)"))
  }

  /// A stamp spares the hash of an unchanged output, and never hides an
  /// edit: one of the same size with its modification time set back is seen
  /// by its change time, and restored.
  @Test func stampsNeverHideAnEdit() throws {
    let fixture = Fixture()
    try fixture.tree.write("build/a.txt", "alpha")
    let found = OutputFiles.capture(["build"], root: fixture.root, store: fixture.store)
    #expect(found.stamps.keys.sorted() == ["build/a.txt"])
    let entry = ActionEntry(key: String(repeating: "e", count: 64), lane: "l", duetVersion: "0", strict: false, partial: false,
                            outputs: found.outputs, log: nil)
    guard case .success(let unchanged) = OutputRestore.plan(entry, declared: ["build"], root: fixture.root, stamps: found.stamps) else {
      Issue.record("no plan"); return
    }
    #expect(unchanged.writes.isEmpty)
    let path = fixture.root.appendingPathComponent("build/a.txt").path
    var before = stat()
    lstat(path, &before)
    // A sleep that is the point: the rewrite must get a later change time than the first write.
    usleep(20_000)
    try fixture.tree.write("build/a.txt", "ALPHA")
    var times = [before.st_atim, before.st_mtim]
    utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    guard case .success(let edited) = OutputRestore.plan(entry, declared: ["build"], root: fixture.root, stamps: found.stamps) else {
      Issue.record("no plan"); return
    }
    #expect(edited.writes.map(\.path) == ["build/a.txt"])
    #expect(OutputRestore.apply(edited, root: fixture.root, store: fixture.store) == .restored(files: 1))
    #expect(fixture.bytes("build/a.txt") == Data("alpha".utf8))
  }

  /// A blob is stored under the digest of its bytes, and a download whose
  /// bytes are not its name is refused and removed.
  @Test func storeNamesBlobsByTheirBytes() throws {
    let fixture = Fixture()
    let digest = try fixture.store.insert(Array("hello".utf8))
    #expect(digest.hash == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    #expect(fixture.store.contains(digest))
    let (fd, path) = try fixture.store.temporaryFile()
    _ = "not hello".withCString { write(fd, $0, 9) }
    close(fd)
    #expect(throws: ContentStore.StoreError.self) { try fixture.store.adopt(path, as: BlobDigest(hash: String(repeating: "f", count: 64), size: 9)) }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  /// A blob this run downloaded and hashed into the store is copied out by the
  /// kernel, unhashed (issue 51: hashed once), byte for byte and with its mode;
  /// one whose size is not its digest's is still refused. A blob not so
  /// checked is hashed as it is copied: a damaged one restores nothing.
  @Test func aCheckedBlobIsCopiedOutUnhashedAndItsSizeChecked() throws {
    let fixture = Fixture()
    let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let digest = try fixture.store.insert(bytes)
    let entry = ActionEntry(key: String(repeating: "a", count: 64), lane: "l", duetVersion: "0", strict: false, partial: false,
                            outputs: [.file(path: "build/big", digest: digest, mode: 0o755)], log: nil)
    guard case .success(let plan) = OutputRestore.plan(entry, declared: ["build"], root: fixture.root) else { Issue.record("no plan"); return }
    #expect(OutputRestore.apply(plan, root: fixture.root, store: fixture.store, checked: [digest]) == .restored(files: 1))
    #expect(fixture.bytes("build/big") == Data(bytes))
    #expect(fixture.mode("build/big") == 0o755)
    // The store's copy cut short: the size check refuses it, checked or not.
    let blob = fixture.store.blobPath(digest.hash)
    chmod(blob, 0o644)
    try Data(bytes.prefix(1000)).write(to: URL(fileURLWithPath: blob))
    try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("build/big"))
    let refused = OutputRestore.apply(plan, root: fixture.root, store: fixture.store, checked: [digest])
    #expect(refused != .restored(files: 1))
    #expect(fixture.bytes("build/big") == nil)
    // Same size, other bytes: only the hash sees it, so an unchecked blob is hashed.
    try Data(bytes.map { $0 ^ 1 }).write(to: URL(fileURLWithPath: blob))
    #expect(OutputRestore.apply(plan, root: fixture.root, store: fixture.store) != .restored(files: 1))
    #expect(fixture.bytes("build/big") == nil)
  }

  /// A refusal and a store error are terminal lines (issue 54, item 11): a
  /// path from a hostile entry or tree (`x\n::error::…`, an `ESC ]`) is
  /// escaped once, as the reason is made, so it can neither start a CI log
  /// command nor retitle the terminal, and its backslashes are not doubled.
  @Test func reasonsEscapeTreeTextOnce() throws {
    let fixture = Fixture()
    let hostile = "x\n::error::owned\u{1B}]0;t"
    let entry = ActionEntry(key: String(repeating: "e", count: 64), lane: "l", duetVersion: "0", strict: false, partial: false,
                            outputs: [.file(path: hostile, digest: BlobDigest(hash: String(repeating: "a", count: 64), size: 1), mode: 0o644)],
                            log: nil)
    guard case .cannot(let why) = OutputRestore.restore(entry, declared: ["build"], root: fixture.root, store: fixture.store) else {
      Issue.record("restored an entry naming a path outside its outputs"); return
    }
    #expect(why.text == #"its cache entry names x\n::error::owned\u{1B}]0;t, outside the lane's outputs"#)
    // A store error names the folder it could not write in, escaped (it was
    // put in as it came before).
    let blob = try fixture.store.insert(Array("a".utf8))
    do {
      try fixture.store.restore(blob, toAbsolute: "/nonexistent/x\n::error::owned/log", mode: 0o644)
      Issue.record("restored into a folder that does not exist")
    } catch {
      #expect(error.description == #"cannot write in /nonexistent/x\n::error::owned: No such file or directory"#)
    }
  }
}

/// Set-user-ID and set-group-ID bits never come out of the cache.
@Suite("Modes a cache restores")
struct RestoredModeTests {
  /// An output captured with mode 4755, or an entry (from a shared server)
  /// naming 6755, is restored 0755: a cache never plants a setuid file.
  @Test func setuidIsNeverRestored() throws {
    let tree = try TemporaryFolder()
    let store = ContentStore(folder: tree.url.appendingPathComponent(".duet/cache"))
    try tree.write("build/tool", "#!/bin/sh\n")
    chmod(tree.url.appendingPathComponent("build/tool").path, 0o4755)
    let found = OutputFiles.capture(["build"], root: tree.url, store: store)
    guard case .file(_, let digest, let mode)? = found.outputs.first else { Issue.record("no output"); return }
    #expect(mode == 0o755)
    let hostile = ActionEntry(key: String(repeating: "e", count: 64), lane: "l", duetVersion: "0", strict: false, partial: false,
                              outputs: [.file(path: "build/tool", digest: digest, mode: 0o6755)], log: nil)
    let decoded = try ActionEntry.decode(hostile.encoded())
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("build"))
    #expect(OutputRestore.restore(decoded, declared: ["build"], root: tree.url, store: store) == .restored(files: 1))
    var info = stat()
    lstat(tree.url.appendingPathComponent("build/tool").path, &info)
    #expect(info.st_mode & 0o7777 == 0o755)
  }
}
