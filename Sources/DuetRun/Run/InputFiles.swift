import Foundation
import DuetSupport
import DuetHistory

/// Every file a lane's input globs reach, as the cache key holds it.
///
/// A file left out of the key is a file whose edit leaves the lane `cached`, so
/// this walk drops nothing: names are read as bytes (`caf\xE9.txt` is a file
/// like any other, written through `PathBytes.text`), hidden names match as any
/// name does (but `.git` and `.duet`, `Glob.HiddenNames.ordinary`), and a
/// symbolic link is in the key by its target text and, when the target is inside
/// the tree, by its content: a linked file's bytes, a linked folder's files
/// (walked once, however many links reach it). A FIFO, socket or device is in
/// the key by its kind and is never opened. What cannot be read is a problem:
/// the lane then has no fingerprint to serve from the cache, and says why.
struct InputFiles: Sendable {
  var files: [FingerprintParts.File] = []
  /// Why a file the globs reach is not in the key (`cannot read src/a.txt: ...`).
  var problems: [String] = []

  /// Walks `patterns` (globs relative to `root`).
  static func collect(_ patterns: [String], root: URL) -> InputFiles {
    collect(patterns, root: root, keyed: true)
  }

  /// The paths `collect` finds, relative to the root, sorted, their contents
  /// not read: what the sandbox shows a lane (issue 56; reading every input
  /// again before each sandboxed start was a cost of its own).
  static func paths(_ patterns: [String], root: URL) -> [String] {
    collect(patterns, root: root, keyed: false).files.map(\.path)
  }

  private static func collect(_ patterns: [String], root: URL, keyed: Bool) -> InputFiles {
    var walk = Walk(root: Array(root.path.utf8))
    walk.keyed = keyed
    for pattern in patterns {
      let glob = Glob(pattern)
      guard !glob.escapes else { continue }
      walk.visitedFolders.removeAll()
      walk.walk(glob.segments[...], folder: walk.root, relative: [])
    }
    var result = InputFiles()
    for key in walk.found.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      result.files.append(FingerprintParts.File(path: PathBytes.text(key), sha256: walk.found[key]!))
    }
    result.problems = walk.problems
    return result
  }

  /// One entry of a folder, by what `lstat` (and, for a link, the target) says.
  enum Kind {
    case folder(Identity)
    case file
    /// A link to a folder inside the tree, walked as a folder.
    case linkedFolder(text: [UInt8], Identity)
    /// Any other link: to a file inside the tree, outside it, or to nothing.
    case link(text: [UInt8])
    case special(String)
  }

  /// A folder's device and inode: the same folder reached twice (two links, a
  /// link back up) is walked once per pattern position.
  struct Identity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  struct Walk {
    let root: [UInt8]
    let realRoot: [UInt8]
    var found: [[UInt8]: String] = [:]
    var problems: [String] = []
    var visitedFolders = Set<Visit>()
    /// Whether each entry's key is worked out (its content hashed); false: its path alone.
    var keyed = true

    struct Visit: Hashable {
      var position: Int
      var folder: Identity
    }

    init(root: [UInt8]) {
      self.root = root
      realRoot = InputFiles.realPath(root) ?? root
    }

    mutating func walk(_ pattern: ArraySlice<String>, folder: [UInt8], relative: [UInt8]) {
      guard let head = pattern.first else { return }
      if let identity = InputFiles.identity(of: folder) {
        guard visitedFolders.insert(Visit(position: pattern.startIndex, folder: identity)).inserted else { return }
      }
      let rest = pattern.dropFirst()
      // A literal segment names one entry: looked at alone, not found in a listing
      // of its folder (`src/m7/**` must not stat every sibling of `m7`).
      let entries = head.contains(where: { "*?".contains($0) }) ? self.entries(of: folder, relative: relative) : named(head, in: folder, relative: relative)
      if head == "**" {
        walk(rest, folder: folder, relative: relative)
        for entry in entries where Glob.wildcardTakes(entry.name, .ordinary) {
          if rest.isEmpty { note(entry) }
          if let sub = entry.walkable { walk(pattern, folder: sub, relative: entry.relative) }
        }
        return
      }
      for entry in entries where Glob.segmentMatches(head, entry.name, hidden: .ordinary) {
        if rest.isEmpty {
          note(entry)
        } else if let sub = entry.walkable {
          walk(rest, folder: sub, relative: entry.relative)
        }
      }
    }

    struct Entry {
      var name: String
      var full: [UInt8]
      var relative: [UInt8]
      var kind: Kind

      /// The folder to walk into, for a folder or a link to one inside the tree.
      var walkable: [UInt8]? {
        switch kind {
        case .folder, .linkedFolder: return full
        default: return nil
        }
      }
    }

    /// Puts one matched entry in the key; a folder itself holds nothing to key.
    mutating func note(_ entry: Entry) {
      if case .folder = entry.kind { return }
      guard keyed else {
        found[entry.relative] = ""
        return
      }
      switch entry.kind {
      case .folder: return
      case .file:
        do { found[entry.relative] = try InputFiles.contentKey(entry.full) } catch {
          problems.append("cannot read \(PathBytes.text(entry.relative)) (\(String(cString: strerror(error.code))))")
        }
      case .linkedFolder(let text, _):
        found[entry.relative] = "link-" + Digest.sha256(Data(text)).prefix(16) + "-folder"
      case .link(let text):
        var key = "link-" + Digest.sha256(Data(text)).prefix(16)
        if let target = InputFiles.realPath(entry.full), InputFiles.isInside(target, realRoot) {
          if let content = try? InputFiles.contentKey(target) { key += "-" + content }
        } else {
          key += InputFiles.realPath(entry.full) == nil ? "-dangling" : "-outside"
        }
        found[entry.relative] = key
      case .special(let kind):
        found[entry.relative] = "special-" + kind
      }
    }

    /// The one entry `name` of `folder`, when it exists.
    func named(_ name: String, in folder: [UInt8], relative: [UInt8]) -> [Entry] {
      let bytes = Array(name.utf8)
      let full = folder + [0x2F] + bytes
      guard let kind = kind(of: full) else { return [] }
      return [Entry(name: name, full: full, relative: relative.isEmpty ? bytes : relative + [0x2F] + bytes, kind: kind)]
    }

    /// The entries of `folder` by their byte names; a folder that cannot be
    /// listed is a problem, not an empty folder.
    mutating func entries(of folder: [UInt8], relative: [UInt8]) -> [Entry] {
      guard let handle = opendir(PathBytes.cString(folder)) else {
        if errno != ENOENT && errno != ENOTDIR {
          problems.append("cannot list \(relative.isEmpty ? "." : PathBytes.text(relative)) (\(String(cString: strerror(errno))))")
        }
        return []
      }
      defer { closedir(handle) }
      var entries: [Entry] = []
      while let raw = readdir(handle) {
        let nameBytes = withUnsafePointer(to: raw.pointee.d_name) {
          $0.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) { Array(UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)))) }
        }
        if nameBytes == [0x2E] || nameBytes == [0x2E, 0x2E] { continue }
        let full = folder + [0x2F] + nameBytes
        guard let kind = kind(of: full) else { continue }
        entries.append(Entry(name: String(decoding: nameBytes, as: UTF8.self), full: full,
                             relative: relative.isEmpty ? nameBytes : relative + [0x2F] + nameBytes, kind: kind))
      }
      return entries
    }

    func kind(of full: [UInt8]) -> Kind? {
      var info = stat()
      guard lstat(PathBytes.cString(full), &info) == 0 else { return nil }
      switch info.st_mode & S_IFMT {
      case S_IFDIR: return .folder(Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
      case S_IFREG: return .file
      case S_IFLNK:
        let text = InputFiles.linkText(full)
        var target = stat()
        if let real = InputFiles.realPath(full), InputFiles.isInside(real, realRoot),
           stat(PathBytes.cString(real), &target) == 0, target.st_mode & S_IFMT == S_IFDIR {
          return .linkedFolder(text: text, Identity(device: UInt64(target.st_dev), inode: UInt64(target.st_ino)))
        }
        return .link(text: text)
      default: return .special(PathGuard.kindName(info.st_mode).replacingOccurrences(of: " ", with: "-"))
      }
    }
  }

  static func identity(of folder: [UInt8]) -> Identity? {
    var info = stat()
    guard stat(PathBytes.cString(folder), &info) == 0 else { return nil }
    return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// The SHA-256 of a regular file, with `+x` when it is executable: a script
  /// that lost its executable bit fails, so the bit is part of the file.
  static func contentKey(_ path: [UInt8]) throws(POSIXErrorBox) -> String {
    let fd = open(PathBytes.cString(path), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard fd >= 0 else { throw POSIXErrorBox(code: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw POSIXErrorBox(code: errno) }
    guard info.st_mode & S_IFMT == S_IFREG else { return "special-" + PathGuard.kindName(info.st_mode).replacingOccurrences(of: " ", with: "-") }
    var digest = Digest()
    do { try digest.update(readingFrom: fd, displayPath: PathBytes.text(path)) } catch {
      if case .cannotRead(_, let code) = error { throw POSIXErrorBox(code: code) }
      throw POSIXErrorBox(code: EIO)
    }
    return digest.hex() + (info.st_mode & 0o111 != 0 ? "+x" : "")
  }

  struct POSIXErrorBox: Error {
    var code: Int32
  }

  static func linkText(_ path: [UInt8]) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(PathBytes.cString(path), &buffer, buffer.count - 1)
    return count < 0 ? [] : buffer[0..<count].map { UInt8(bitPattern: $0) }
  }

  static func realPath(_ path: [UInt8]) -> [UInt8]? {
    guard let resolved = realpath(PathBytes.cString(path), nil) else { return nil }
    defer { free(resolved) }
    return Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
  }

  static func isInside(_ path: [UInt8], _ root: [UInt8]) -> Bool {
    path == root || (path.count > root.count && path.starts(with: root) && path[root.count] == 0x2F)
  }
}
