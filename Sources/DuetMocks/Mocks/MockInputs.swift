import Foundation
import DuetModel
import DuetSupport

/// The inputs of a mock entry: the regular files its `include` globs match under
/// its source roots, hidden files and symbolic links skipped, each named relative
/// to the tree root, sorted by path bytes and hashed from a streamed read.
enum MockInputs {
  /// The entry's inputs with their SHA-256, in the block's order.
  static func collect(_ entry: MockEntry, root: URL) throws(MockError) -> [FingerprintBlock.Input] {
    let paths = try self.paths(entry, root: root)
    return try hash(paths, root: root, entry: entry)
  }

  /// The root-relative paths of the entry's inputs, sorted; the output itself is never one.
  static func paths(_ entry: MockEntry, root: URL) throws(MockError) -> [String] {
    func fail(_ message: String) -> MockError { MockError(output: entry.output, message: message, location: entry.location) }
    for pattern in entry.include {
      let parts = pattern.split(separator: "/").map(String.init)
      if pattern.hasPrefix("/") || parts.contains("..") || pattern.isEmpty {
        throw fail("include pattern '\(pattern)' must stay under the source root (no '..' or absolute paths)")
      }
    }
    let output = normalized(entry.output)
    var found: [String] = []
    for source in entry.sources {
      let folder = try sourceFolder(source, root: root, fail: fail)
      let base = root.appendingPathComponent(folder.isEmpty ? "." : folder)
      for pattern in entry.include {
        for match in Glob(pattern).expand(in: base, kind: .files) {
          let path = folder.isEmpty ? match : folder + "/" + match
          if path == output { continue }
          if holdsLineBreak(path) {
            throw fail("cannot record \(path.debugDescription): its name holds a line break, which the block cannot hold")
          }
          found.append(path)
        }
      }
    }
    // One root and one pattern come back from the glob sorted and unique already;
    // checking that is linear, sorting 20,000 paths is not.
    if zip(found, found.dropFirst()).allSatisfy({ Glob.precedes($0, $1) }) { return found }
    return Array(Set(found)).sorted(by: Glob.precedes)
  }

  /// Whether `text` (an input's path, a `generator`, a `bundle`) holds any
  /// line break (LF, CR, VT, FF, NEL, LS, PS): raw on its line of the block,
  /// an editor or a diff would show the rest as a line of code. Only text
  /// with a control or a byte past ASCII is read by character.
  static func holdsLineBreak(_ text: String) -> Bool {
    text.utf8.contains { (10...13).contains($0) || $0 >= 0x80 } && text.contains(where: \.isNewline)
  }

  /// A source root as a clean tree-relative folder ("" for the root itself), after
  /// checking it exists, is a folder, and does not lead out of the tree.
  static func sourceFolder(_ source: String, root: URL, fail: (String) -> MockError) throws(MockError) -> String {
    let folder = normalized(source)
    let parts = folder.split(separator: "/").map(String.init)
    if source.hasPrefix("/") || parts.contains("..") {
      throw fail("source root '\(source)' must be a folder inside the tree, relative to its root")
    }
    let absolute = root.appendingPathComponent(folder.isEmpty ? "." : folder).path
    var info = stat()
    guard stat(absolute, &info) == 0 else {
      if errno == ENOENT || errno == ENOTDIR { throw fail("source root '\(source)' does not exist") }
      throw fail("cannot read source root '\(source)': \(String(cString: strerror(errno)))")
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else { throw fail("source root '\(source)' is not a folder") }
    // A link on the way is followed only when it lands inside the tree.
    if let real = realPath(absolute), let realRoot = realPath(root.path),
      real != realRoot, !real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
    {
      throw fail("source root '\(source)' leads out of the tree through a symbolic link; duet does not follow it")
    }
    return folder
  }

  /// Hashes each file, two or more at once: the work is reading and SHA-256, both
  /// independent per file, and each thread hands its hashes back in order.
  static func hash(_ paths: [String], root: URL, entry: MockEntry) throws(MockError) -> [FingerprintBlock.Input] {
    let base = root.path
    let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
    let hashes = paths.parallelMap(width: workers) { path -> Result<String, FileError> in
      do {
        return .success(try Digest.sha256(fileAt: base + "/" + path))
      } catch let error as FileError {
        return .failure(error)
      } catch {
        return .failure(.cannotRead(path, errno: EIO))
      }
    }
    var inputs: [FingerprintBlock.Input] = []
    inputs.reserveCapacity(paths.count)
    for (path, hash) in zip(paths, hashes) {
      switch hash {
      case .success(let hex): inputs.append(.init(path: path, sha256: hex))
      case .failure(.cannotRead(_, let code)):
        throw MockError(output: entry.output, message: "cannot read \(path): \(String(cString: strerror(code)))", location: entry.location)
      case .failure(let other):
        throw MockError(output: entry.output, message: "\(path): \(other)", location: entry.location)
      }
    }
    return inputs
  }

  /// `a//b/./c/` as `a/b/c`; `.` as "".
  static func normalized(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.joined(separator: "/")
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
