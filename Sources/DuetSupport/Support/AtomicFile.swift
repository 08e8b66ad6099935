import Foundation

/// Writes files so that a reader sees the old content or the new, never half of either:
/// the bytes go to a temporary file beside the target, are flushed, and renamed over it.
public enum AtomicFile {
  /// Writes `data` to `path` (relative to `root`) unless it already holds exactly
  /// that; returns whether the file changed. Paths that leave the tree are refused.
  @discardableResult
  public static func write(_ data: Data, to path: String, in root: URL) throws -> Bool {
    let target = try TreePath.resolveForWriting(path, in: root)
    var info = stat()
    if lstat(target.path, &info) == 0 {
      // Only a regular file is read to compare, or replaced: a FIFO would block.
      if info.st_mode & S_IFMT == S_IFDIR { throw FileError.cannotWrite(path, reason: String(cString: strerror(EISDIR))) }
      guard info.st_mode & S_IFMT == S_IFREG else {
        throw FileError.refused(path, reason: "it is \(PathGuard.kindName(info.st_mode)), not a regular file; duet writes only regular files")
      }
      if let existing = try? PathGuard.readRegularFile(atAbsolute: target.path, displayPath: path), existing == data { return false }
    }
    try write(data, toAbsolute: target.path, displayPath: path)
    return true
  }

  /// Atomic write to an absolute path (for files duet owns, such as reports).
  public static func write(_ data: Data, toAbsolute path: String, displayPath: String? = nil) throws {
    let shown = displayPath ?? path
    let directory = (path as NSString).deletingLastPathComponent
    do {
      try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
    } catch {
      throw FileError.cannotWrite(shown, reason: "cannot create its folder: \(error.localizedDescription)")
    }
    var template = Array(((directory.isEmpty ? "." : directory) + "/.duet-tmp-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw FileError.cannotWrite(shown, reason: String(cString: strerror(errno))) }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var failure: String?
    if let code = data.withUnsafeBytes({ writeAll(fd, $0) }) { failure = String(cString: strerror(code)) }
    if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
    fchmod(fd, 0o644)
    close(fd)
    if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(temporary)
      throw FileError.cannotWrite(shown, reason: failure)
    }
  }
}

/// Paths relative to a tree root, checked before duet writes through them.
public enum TreePath {
  /// The absolute URL of `path` under `root`, refusing absolute paths, `..`
  /// components and any symbolic link on the way: `PathGuard.resolve`, with the
  /// refusal worded for a write.
  public static func resolveForWriting(_ path: String, in root: URL) throws -> URL {
    do {
      return try PathGuard.resolve(path, in: root)
    } catch {
      throw FileError.outsideTree(path)
    }
  }
}
