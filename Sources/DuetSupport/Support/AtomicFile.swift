import Foundation

/// Writes files so that a reader sees the old content or the new, never half of either:
/// the bytes go to a temporary file beside the target, are flushed, and renamed over it.
package enum AtomicFile {
  /// Writes `data` to `path` (relative to `root`) unless it already holds exactly
  /// that; returns whether the file changed. Paths that leave the tree are refused.
  @discardableResult
  package static func write(_ data: Data, to path: String, in root: URL) throws -> Bool {
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

  /// Writes `data` to an absolute path (a report such as `--junit`, a hook, a
  /// state file) by the one rule of what duet replaces: nothing there, or a
  /// regular file, is replaced atomically; a character device or a pipe (or a
  /// link to one: `/dev/stdout`, `/dev/null`) is written through, never renamed
  /// over; anything else (a folder, a socket, a block device, a link to a file
  /// or to nothing) is refused with what it is. `durable` false skips the
  /// flush to disk before the rename: for a cache's files, checked when read
  /// and worth only a rerun when lost (a flush each is seconds for 100 lanes on
  /// a busy disk); still all old or all new.
  package static func write(_ data: Data, toAbsolute path: String, displayPath: String? = nil, durable: Bool = true) throws {
    let shown = displayPath ?? path
    switch target(ofAbsolute: path) {
    case .replace: try replace(data, atAbsolute: path, shown: shown, durable: durable)
    case .writeThrough(let append): try writeThrough(data, toAbsolute: path, shown: shown, append: append)
    case .refused(let reason): throw FileError.refused(shown, reason: reason)
    }
  }

  /// Appends `data` (GitHub's step summary, shared by a job's steps) by the same
  /// rule: a regular file or nothing is appended to (`O_APPEND`, created when
  /// missing), a device or pipe written through, anything else refused.
  package static func append(_ data: Data, toAbsolute path: String) throws {
    switch target(ofAbsolute: path) {
    case .replace:
      let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw FileError.cannotWrite(path, reason: String(cString: strerror(errno))) }
      defer { close(fd) }
      var info = stat()
      guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
        throw FileError.refused(path, reason: "it changed into \(PathGuard.kindName(info.st_mode)) while duet opened it")
      }
      if let code = data.withUnsafeBytes({ writeAll(fd, $0) }) { throw FileError.cannotWrite(path, reason: String(cString: strerror(code))) }
    case .writeThrough: try writeThrough(data, toAbsolute: path, shown: path, append: true)
    case .refused(let reason): throw FileError.refused(path, reason: reason)
    }
  }

  /// What the rule does with `path`.
  enum Target: Equatable {
    /// Nothing there, or a regular file: replaced atomically.
    case replace
    /// A character device or pipe, or a link in `/dev` or `/proc` to one or to a
    /// regular file (`/dev/stdout` redirected to a file, appended to).
    case writeThrough(append: Bool)
    case refused(String)
  }

  static func target(ofAbsolute path: String) -> Target {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      return errno == ENOENT ? .replace : .refused(String(cString: strerror(errno)))
    }
    let only = "duet replaces only a regular file, and writes through a device or a pipe"
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .replace
    case S_IFCHR, S_IFIFO: return .writeThrough(append: false)
    case S_IFLNK:
      var followed = stat()
      guard stat(path, &followed) == 0 else { return .refused("it is a symbolic link to nothing; \(only)") }
      switch followed.st_mode & S_IFMT {
      case S_IFCHR, S_IFIFO: return .writeThrough(append: false)
      case S_IFREG where path.hasPrefix("/dev/") || path.hasPrefix("/proc/"): return .writeThrough(append: true)
      default: return .refused("it is a symbolic link to \(PathGuard.kindName(followed.st_mode)); \(only): name the file itself")
      }
    default:
      return .refused("it is \(PathGuard.kindName(info.st_mode)), not a regular file; \(only)")
    }
  }

  /// Writes through a device or pipe: opened without blocking (a FIFO with no
  /// reader is refused, not waited on), checked again once open, then written.
  static func writeThrough(_ data: Data, toAbsolute path: String, shown: String, append: Bool) throws {
    let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0))
    guard fd >= 0 else {
      let reason = errno == ENXIO ? "it is a FIFO (named pipe) that no one reads" : String(cString: strerror(errno))
      throw FileError.cannotWrite(shown, reason: reason)
    }
    defer { close(fd) }
    var info = stat()
    let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
    guard kind == S_IFCHR || kind == S_IFIFO || (append && kind == S_IFREG) else {
      throw FileError.refused(shown, reason: "it is \(PathGuard.kindName(info.st_mode)) once opened; duet writes through only a device or a pipe")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    if let code = data.withUnsafeBytes({ writeAll(fd, $0) }) { throw FileError.cannotWrite(shown, reason: String(cString: strerror(code))) }
  }

  /// Writes a temporary file beside `path` and renames it over `path`, which
  /// `target` found to be nothing or a regular file.
  static func replace(_ data: Data, atAbsolute path: String, shown: String, durable: Bool = true) throws {
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
    if failure == nil && durable && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
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
package enum TreePath {
  /// The absolute URL of `path` under `root`, refusing absolute paths, `..`
  /// components and any symbolic link on the way: `PathGuard.resolve`, with the
  /// refusal worded for a write.
  package static func resolveForWriting(_ path: String, in root: URL) throws -> URL {
    do {
      return try PathGuard.resolve(path, in: root)
    } catch {
      throw FileError.outsideTree(path)
    }
  }
}
