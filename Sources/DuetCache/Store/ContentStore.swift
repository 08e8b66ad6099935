import DuetSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local content-addressed store: `<folder>/cas/<first two hex>/<sha256>`,
/// one file per blob, named by the SHA-256 of its bytes, and the action
/// entries beside it in `<folder>/ac/<key>`.
///
/// Every blob is written to a temporary file in the store and renamed into
/// place only once its bytes hash to its name, so a reader never sees half a
/// blob or a blob under another's name. Reading a blob checks its bytes again,
/// so a store damaged on disk restores nothing wrong. A use sets a blob's
/// modification time, which `prune` reads as "least recently used".
///
/// Every file call goes through `disk` (`StoreDisk`): the system's, but in
/// tests. A store on another disk has no remote: curl writes its downloads
/// into real files.
package final class ContentStore: Sendable {
  let folder: URL
  /// The disk the store's files, and the outputs it captures and restores, are on.
  package let disk: any StoreDisk

  /// `.duet/cache` under a tree root.
  package static func defaultFolder(root: URL) -> URL {
    root.appendingPathComponent(".duet/cache")
  }

  package init(folder: URL, disk: any StoreDisk = systemDisk) {
    self.folder = folder
    self.disk = disk
  }

  /// What went wrong in the store. `io`'s reason is a terminal line: the
  /// paths it names (a tree's output, a store file) escaped as it is made.
  package enum StoreError: Error, CustomStringConvertible {
    case io(TerminalLine)
    case mismatch(expected: BlobDigest, got: BlobDigest)

    package var description: String {
      switch self {
      case .io(let why): return why.text
      case .mismatch(let expected, let got): return "blob \(expected.hash.prefix(12))… holds bytes whose digest is \(got.hash.prefix(12))… (\(got.size) bytes)"
      }
    }
  }

  /// Where the blob named `hash` lives.
  package func blobPath(_ hash: String) -> String {
    folder.appendingPathComponent("cas/\(hash.prefix(2))/\(hash)").path
  }

  func entryPath(_ key: String) -> String {
    folder.appendingPathComponent("ac/\(key)").path
  }

  /// Whether the store holds the blob (a regular file of its size).
  package func contains(_ digest: BlobDigest) -> Bool {
    guard let found = disk.status(blobPath(digest.hash)) else { return false }
    return found.kind == S_IFREG && Int(found.size) == digest.size
  }

  /// A temporary file inside the store, for a blob being written or downloaded:
  /// on the same file system as the blobs, so it can be renamed into place.
  package func temporaryFile() throws(StoreError) -> (fd: Int32, path: String) {
    let tmp = folder.appendingPathComponent("tmp").path
    do { try disk.makeFolders(tmp) } catch { throw .io("cannot make \(tmp): \(error.why)") }
    do { return try disk.makeTemporary(in: tmp, prefix: "blob-") } catch { throw .io("cannot make a file in \(tmp): \(error.why)") }
  }

  /// A temporary file outside the store (the system's temporary folder), for
  /// what is read and thrown away, never renamed into the store: an action
  /// entry being downloaded. A `--dry-run` asking the remote so writes nothing
  /// in the tree.
  static func scratchFile() throws(StoreError) -> (fd: Int32, path: String) {
    var folder = FileManager.default.temporaryDirectory.path
    while folder.hasSuffix("/") && folder.count > 1 { folder.removeLast() }
    var template = Array((folder + "/duet-entry-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else { throw .io("cannot make a file in \(folder): \(String(cString: strerror(errno)))") }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return (fd, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  /// Copies the regular file at `path` into the store; returns its digest.
  /// The bytes are hashed as they are copied, so the name is what was stored.
  package func insert(fileAt path: String) throws(StoreError) -> BlobDigest {
    let source: Int32
    do { source = try disk.openRegularFile(path) } catch { throw .io("\(error.why)") }
    defer { disk.close(source) }
    let (fd, temporary) = try temporaryFile()
    var digest = Digest()
    let (size, failure) = disk.copy(from: source, to: fd) { digest.update($0) }
    disk.close(fd)
    if let failure {
      disk.remove(temporary)
      throw .io("cannot copy \(path) into the cache: \(failure)")
    }
    let stored = BlobDigest(hash: digest.hex(), size: size)
    try place(temporary, as: stored)
    return stored
  }

  /// Stores bytes held in memory; returns their digest.
  func insert(_ bytes: [UInt8]) throws(StoreError) -> BlobDigest {
    var digest = Digest()
    bytes.withUnsafeBytes { digest.update($0) }
    let stored = BlobDigest(hash: digest.hex(), size: bytes.count)
    if contains(stored) { touch(stored); return stored }
    let (fd, temporary) = try temporaryFile()
    let failure = bytes.withUnsafeBytes { disk.write($0, to: fd) }
    disk.close(fd)
    if let failure {
      disk.remove(temporary)
      throw .io("cannot write a blob: \(failure)")
    }
    try place(temporary, as: stored)
    return stored
  }

  /// Moves a finished temporary file into place as `digest`, after checking
  /// that its bytes are that digest (a download is checked here): by
  /// `written`, the digest of the bytes as they were written into it, when
  /// the writer took one, else by reading it back.
  func adopt(_ temporary: String, as digest: BlobDigest, written: BlobDigest? = nil) throws(StoreError) {
    let got: BlobDigest
    if let written {
      got = written
    } else {
      do { got = try ContentStore.digest(ofFileAt: temporary, disk: disk) } catch {
        disk.remove(temporary)
        throw error
      }
    }
    guard got == digest else {
      disk.remove(temporary)
      throw .mismatch(expected: digest, got: got)
    }
    try place(temporary, as: digest)
  }

  private func place(_ temporary: String, as digest: BlobDigest) throws(StoreError) {
    let target = blobPath(digest.hash)
    let parent = (target as NSString).deletingLastPathComponent
    do { try disk.makeFolders(parent) } catch {
      disk.remove(temporary)
      throw .io("cannot make \(parent): \(error.why)")
    }
    // The store's folders are checked by the state-folder guard; a shard
    // folder replaced by a link would take the blob out of the tree.
    guard disk.status(parent)?.kind == S_IFDIR else {
      disk.remove(temporary)
      throw .io("\(parent) is not a real folder; duet keeps blobs in real folders only")
    }
    disk.setMode(temporary, 0o444)
    do { try disk.rename(temporary, to: target) } catch {
      disk.remove(temporary)
      throw .io("cannot store blob \(digest.hash.prefix(12))…: \(error.why)")
    }
  }

  /// Marks a blob used now, for least-recently-used pruning.
  func touch(_ digest: BlobDigest) {
    disk.touch(blobPath(digest.hash))
  }

  /// Copies a blob out to `path` (absolute) with `mode` (a restored log):
  /// through its folder's descriptor, as `restore(_:into:name:mode:)` does.
  func restore(_ digest: BlobDigest, toAbsolute path: String, mode: UInt32) throws(StoreError) {
    let parent = (path as NSString).deletingLastPathComponent
    let folder: Int32
    do { folder = try disk.openFolder(parent) } catch { throw .io("cannot write in \(parent): \(error.why)") }
    defer { disk.close(folder) }
    try restore(digest, into: folder, name: (path as NSString).lastPathComponent, mode: mode, shown: "\(path)")
  }

  /// Copies a blob out to `name` in the open folder `folder` with `mode`: to a
  /// temporary file beside it (`.duet-tmp-XXXXXX`, made with `O_EXCL` and
  /// never through a link), checked against the digest as it is copied, then
  /// renamed over `name` with `renameat`, only where nothing or a regular file
  /// stands. The folder is a descriptor the caller reached from the tree's
  /// root through real folders, so nothing swapped in on the way is followed.
  /// `checked`: this run hashed the blob into the store itself, so it is
  /// copied by the kernel and only its size is checked (issue 51: each blob
  /// hashed once on the way from the remote to the tree).
  func restore(_ digest: BlobDigest, into folder: Int32, name: String, mode: UInt32, shown: TerminalLine, checked: Bool = false) throws(StoreError) {
    let source: Int32
    do { source = try disk.open(blobPath(digest.hash)) } catch { throw .io("the cache has no blob \(digest.hash.prefix(12))…") }
    defer { disk.close(source) }
    let (fd, temporary) = try self.temporary(in: folder, shown: shown)
    var hasher = Digest()
    let copied = checked ? disk.copyInKernel(from: source, to: fd) : disk.copy(from: source, to: fd, seen: { hasher.update($0) })
    let size = copied.bytes
    var failure = copied.failure
    if failure == nil {
      do { try disk.setMode(of: fd, mode & ActionEntry.keptModeBits) } catch { failure = error.why }
    }
    disk.close(fd)
    if let failure {
      try? disk.remove(temporary, in: folder)
      throw .io("cannot restore \(shown): \(failure)")
    }
    let got = checked ? BlobDigest(hash: digest.hash, size: size) : BlobDigest(hash: hasher.hex(), size: size)
    guard got == digest else {
      try? disk.remove(temporary, in: folder)
      // A blob damaged on disk is of no use to anyone: it goes, and the lane runs.
      disk.remove(blobPath(digest.hash))
      throw .mismatch(expected: digest, got: got)
    }
    if let there = disk.status(name, in: folder), there.kind != S_IFREG {
      try? disk.remove(temporary, in: folder)
      throw .io("cannot restore \(shown): it is \(PathGuard.kindName(mode_t(there.mode))), not a regular file")
    }
    do { try disk.rename(temporary, to: name, in: folder) } catch {
      try? disk.remove(temporary, in: folder)
      throw .io("cannot restore \(shown): \(error.why)")
    }
    touch(digest)
  }

  /// Puts a restored log at `path` (absolute): when this run downloaded and
  /// checked its blob, as a second name of the store's file (no copy and no new
  /// file: nothing writes a log in place, and a link into `.duet/logs` leaves
  /// the tree alone), else as a checked copy.
  package func restoreLog(_ digest: BlobDigest, toAbsolute path: String, checked: Bool) throws(StoreError) {
    if checked && linked(digest, toAbsolute: path) { return }
    try restore(digest, toAbsolute: path, mode: 0o644)
  }

  /// Links the blob's file to `path` through a temporary name renamed over
  /// it, only where nothing or a regular file stands; whether it did.
  private func linked(_ digest: BlobDigest, toAbsolute path: String) -> Bool {
    let parent = (path as NSString).deletingLastPathComponent, name = (path as NSString).lastPathComponent
    guard let folder = try? disk.openFolder(parent) else { return false }
    defer { disk.close(folder) }
    if let there = disk.status(name, in: folder), there.kind != S_IFREG { return false }
    // A name of its own: two lanes with the same log may be restored at once.
    let temporary = Self.temporaryName()
    guard (try? disk.hardLink(blobPath(digest.hash), as: temporary, in: folder)) != nil else { return false }
    do { try disk.rename(temporary, to: name, in: folder) } catch {
      try? disk.remove(temporary, in: folder)
      return false
    }
    return true
  }

  /// `.duet-tmp-` and six random letters or digits, as `mkstemp` names files.
  static func temporaryName() -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    return FileWatcher.temporaryPrefix + String((0..<6).map { _ in letters.randomElement()! })
  }

  /// A new temporary file in `folder`, `.duet-tmp-` and six random letters or
  /// digits, as `mkstemp` names it, made with `O_EXCL | O_NOFOLLOW`.
  func temporary(in folder: Int32, shown: TerminalLine) throws(StoreError) -> (fd: Int32, name: String) {
    var last = DiskFailure(code: EEXIST)
    for _ in 0..<100 {
      let name = Self.temporaryName()
      do { return (try disk.createExclusive(name, in: folder), name) } catch { last = error }
      if last.code != EEXIST { break }
    }
    throw .io("cannot write beside \(shown): \(last.why)")
  }

  // MARK: - Entries

  /// The local action entry for `key`, as stored bytes; nil when there is none.
  package func entryBytes(_ key: String) -> [UInt8]? {
    guard BlobDigest.isHash(key) else { return nil }
    guard let data = try? disk.readFile(entryPath(key)),
          data.count <= ActionEntry.maxEncodedSize else { return nil }
    return [UInt8](data)
  }

  /// Writes an action entry atomically, not flushed to disk: an entry is
  /// checked when read, and one lost in a crash costs a rerun (like a blob).
  package func writeEntry(_ bytes: [UInt8], key: String) throws(StoreError) {
    guard BlobDigest.isHash(key) else { throw .io("action key \(key) is not a SHA-256") }
    do { try disk.writeFile(Data(bytes), atomicallyTo: entryPath(key), shown: "action entry \(key.prefix(12))…") } catch {
      throw .io("\(error.why)")
    }
  }

  // MARK: - Stamps

  /// Where the stamps of the tree's copies of an entry's output files are kept.
  func stampPath(_ key: String) -> String {
    folder.appendingPathComponent("stamps/\(key)").path
  }

  /// The stamps taken when the outputs of the entry `key` were last written or
  /// hashed in this tree; empty when there are none.
  package func stamps(_ key: String) -> [String: FileStamp] {
    guard BlobDigest.isHash(key),
          let data = try? disk.readFile(stampPath(key)), data.count < 64 << 20 else { return [:] }
    return FileStamp.parse(String(decoding: data, as: UTF8.self))
  }

  /// Keeps the stamps of an entry's output files as they are now; a failure
  /// only costs a hash next time.
  package func keepStamps(_ stamps: [String: FileStamp], key: String) {
    guard BlobDigest.isHash(key) else { return }
    try? disk.writeFile(Data(FileStamp.serialize(stamps).utf8), atomicallyTo: stampPath(key), shown: "output stamps")
  }

  // MARK: - Helpers

  /// The digest of a file's bytes, read by descriptor.
  static func digest(ofFileAt path: String, disk: any StoreDisk = systemDisk) throws(StoreError) -> BlobDigest {
    let fd: Int32
    do { fd = try disk.open(path) } catch { throw .io("cannot read \(path): \(error.why)") }
    defer { disk.close(fd) }
    var hasher = Digest()
    var size = 0
    if let failure = disk.read(fd, seen: { chunk in
      hasher.update(chunk)
      size += chunk.count
    }) {
      throw .io("cannot read \(path): \(failure)")
    }
    return BlobDigest(hash: hasher.hex(), size: size)
  }
}
