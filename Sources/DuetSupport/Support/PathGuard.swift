import Foundation

/// The one guard for every path duet takes from a file (a manifest, a config, a
/// history store, a fingerprint block, a glob) rather than from the user's own
/// command line: such a path is resolved inside the tree root, every component is
/// checked for a symbolic link with `lstat`, and only regular files are read,
/// opened with `O_NOFOLLOW | O_NONBLOCK`, so a FIFO or a device can neither block
/// duet nor stream into it. `.duet/` itself must be a real folder.
///
/// The root is taken as given: on macOS a root under `/tmp` already sits behind a
/// link (`/private/tmp`), and the user chose it.
package enum PathGuard {
  /// The parts of a root-relative path, refusing an absolute path, an empty one and `..`.
  /// `allowRoot` takes an empty path (or `.`) as the root itself.
  static func components(_ path: String, allowRoot: Bool = false) throws(FileError) -> [String] {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
    guard !path.hasPrefix("/") else { throw .refused(path, reason: "an absolute path; paths from files are relative to the tree root") }
    guard !parts.contains("..") else { throw .refused(path, reason: "'..' leads out of the tree") }
    guard allowRoot || !parts.isEmpty else { throw .refused(path, reason: "an empty path") }
    guard !path.utf8.contains(0) else { throw .refused(path, reason: "a NUL byte in the path") }
    return parts
  }

  /// Whether `path` stays inside the tree by its text alone (no `..`, not absolute).
  package static func isInside(_ path: String) -> Bool {
    (try? components(path, allowRoot: true)) != nil
  }

  /// The absolute URL of `path` under `root`; no component that exists may be a
  /// symbolic link. Missing components are allowed (a file about to be written).
  package static func resolve(_ path: String, in root: URL, allowRoot: Bool = false) throws(FileError) -> URL {
    let parts = try components(path, allowRoot: allowRoot)
    let base = root.standardizedFileURL
    var current = base
    for (index, part) in parts.enumerated() {
      current.appendPathComponent(part)
      var info = stat()
      // A missing component: nothing below it exists, so nothing below can be a link.
      guard lstat(current.path, &info) == 0 else { return parts.reduce(base) { $0.appendingPathComponent($1) } }
      let type = info.st_mode & S_IFMT
      let shown = parts[...index].joined(separator: "/")
      if type == S_IFLNK {
        throw .refused(path, reason: index == parts.count - 1 ? "it is a symbolic link" : "'\(shown)' is a symbolic link")
      }
    }
    return current
  }

  /// The URL of a regular file at `path` under `root`, nil when nothing is there;
  /// a link on the way, a folder, a FIFO, a device or a socket is refused by kind.
  package static func regularFile(_ path: String, in root: URL) throws(FileError) -> URL? {
    let url = try resolve(path, in: root)
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return nil }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .refused(path, reason: "it is \(kindName(info.st_mode)), not a regular file") }
    return url
  }

  /// A folder at `path` under `root` (a lane's `dir:`), with no link on the way.
  static func folder(_ path: String, in root: URL) throws(FileError) -> URL {
    let url = try resolve(path, in: root, allowRoot: true)
    var info = stat()
    guard lstat(url.path, &info) == 0 else { throw .refused(path, reason: "no such folder") }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .refused(path, reason: "it is \(kindName(info.st_mode)), not a folder") }
    return url
  }

  /// Why a lane's `dir:` cannot be run in (a message for its report), or nil when it can.
  package static func laneFolderProblem(_ dir: String, in root: URL) -> String? {
    do {
      _ = try folder(dir, in: root)
      return nil
    } catch {
      if case .refused(_, let reason) = error { return "dir '\(dir)': \(reason)" }
      return "dir '\(dir)': \(error)"
    }
  }

  /// The whole content of the regular file at `path` under `root`, nil when missing.
  package static func read(_ path: String, in root: URL) throws(FileError) -> Data? {
    guard let url = try regularFile(path, in: root) else { return nil }
    return try readRegularFile(atAbsolute: url.path, displayPath: path)
  }

  /// Opens a regular file for reading without following a final link and without
  /// blocking on a FIFO; checks the kind of what was opened, not of what was
  /// looked at, so a swap in between is caught too. The caller closes the descriptor.
  package static func openRegularFile(atAbsolute path: String, displayPath: String) throws(FileError) -> Int32 {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard fd >= 0 else {
      if errno == ELOOP { throw .refused(displayPath, reason: "it is a symbolic link") }
      throw .cannotRead(displayPath, errno: errno)
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw .cannotRead(displayPath, errno: code)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      // A folder is an ordinary mistake, said as the system says it.
      if info.st_mode & S_IFMT == S_IFDIR { throw .cannotRead(displayPath, errno: EISDIR) }
      throw .refused(displayPath, reason: "it is \(kindName(info.st_mode)), not a regular file")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return fd
  }

  /// Reads a whole regular file opened by `openRegularFile`; past `limit`
  /// bytes (a file from outside: an upstream job's seal) it is refused, not read on.
  package static func readRegularFile(atAbsolute path: String, displayPath: String, limit: Int = .max) throws(FileError) -> Data {
    let fd = try openRegularFile(atAbsolute: path, displayPath: displayPath)
    defer { close(fd) }
    var data = Data()
    let size = 256 * 1024
    var buffer = [UInt8](repeating: 0, count: size)
    while true {
      let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, size) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .cannotRead(displayPath, errno: errno)
      }
      if n == 0 { return data }
      guard data.count + n <= limit else { throw .refused(displayPath, reason: "it is larger than \(limit) bytes") }
      data.append(contentsOf: buffer[0..<n])
    }
  }


  /// `.duet`, `.duet/logs` and the cache's folders, where they exist, must be
  /// real folders: through a link, duet's store, logs, cached outputs and their
  /// retention would write and delete elsewhere.
  package static func checkStateFolder(root: URL) throws(FileError) {
    for path in [".duet", ".duet/logs", ".duet/cache", ".duet/cache/cas", ".duet/cache/ac", ".duet/cache/tmp", ".duet/cache/stamps"] {
      var info = stat()
      guard lstat(root.appendingPathComponent(path).path, &info) == 0 else { continue }
      let type = info.st_mode & S_IFMT
      if type == S_IFLNK {
        throw .refused(path, reason: "it is a symbolic link; duet keeps its store and logs in a real folder there (remove the link)")
      }
      if type != S_IFDIR {
        throw .refused(path, reason: "it is \(kindName(info.st_mode)), not a folder; duet keeps its store and logs there (move it away)")
      }
    }
  }

  /// A file kind in the words of a message: "a FIFO", "a character device".
  package static func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a folder"
    case S_IFLNK: return "a symbolic link"
    case S_IFIFO: return "a FIFO (named pipe)"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "a special file"
    }
  }
}
