import DuetSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a cached pass's outputs back: each file the entry names that is missing
/// from the tree or differs from it (bytes or mode) is copied out of the store,
/// checked against its digest, written beside its place and renamed over it;
/// each link is made again. Files that already match are left alone. A file
/// or link in a declared output folder that the pass never recorded (another
/// branch's `Legacy.swift`, a killed restore's temporary) is removed: a
/// restored folder holds exactly what the pass recorded (issue 51).
///
/// Nothing is written outside the lane's declared `outputs:` (an entry naming
/// another path is refused whole), through a link, or over anything but a
/// regular file: where a folder, link or device stands in the way, the lane
/// runs instead.
package enum OutputRestore {
  /// Why the entry cannot be restored (the lane then runs), or what was done.
  package enum Result: Sendable, Equatable {
    case restored(files: Int)
    case cannot(String)
  }

  /// What restoring an entry would write: the outputs that are missing or
  /// differ on disk, or why it cannot be done.
  package struct Plan: Sendable {
    package var entry: ActionEntry
    package var declared: [String]
    package var writes: [ActionEntry.Output] = []
    /// Files and links in the declared output folders that the entry does not record.
    package var removals: [String] = []

    /// The blobs the writes need.
    package var blobs: [BlobDigest] {
      writes.compactMap { if case .file(_, let digest, _) = $0 { return digest } else { return nil } }
    }
  }

  /// Whether every path the entry names lies at or under one of `declared`.
  package static func stray(_ entry: ActionEntry, declared: [String]) -> String? {
    for output in entry.outputs {
      let inside = declared.contains { output.path == $0 || output.path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
      if !inside { return output.path }
    }
    return nil
  }

  /// Compares the tree with the entry; writes nothing. A file whose stamp
  /// equals the one in `stamps` (taken when duet last wrote or hashed it) is
  /// taken as unchanged without reading it.
  package static func plan(_ entry: ActionEntry, declared: [String], root: URL, stamps: [String: FileStamp] = [:]) -> Swift.Result<Plan, Refusal> {
    if let stray = stray(entry, declared: declared) {
      return .failure(Refusal(text: "its cache entry names \(ControlText.shown(stray)), outside the lane's outputs"))
    }
    var plan = Plan(entry: entry, declared: declared)
    for output in entry.outputs {
      if case .file = output, let stamp = stamps[output.path], FileStamp.of(root.path + "/" + output.path) == stamp,
         case .success = walkable(output.path, root: root) {
        continue
      }
      switch matches(output, root: root) {
      case .success(true): continue
      case .success(false): plan.writes.append(output)
      case .failure(let why): return .failure(why)
      }
    }
    let recorded = Set(entry.outputs.map(\.path))
    for path in declared {
      plan.removals += unrecorded(in: path, root: root, recorded: recorded)
    }
    return .success(plan)
  }

  /// The files and links under the declared output folder `path` that
  /// `recorded` does not name, found by `lstat` (no link is followed), sorted.
  static func unrecorded(in path: String, root: URL, recorded: Set<String>) -> [String] {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    guard case .success = walkable(trimmed + "/x", root: root) else { return [] }
    var info = stat()
    guard lstat(root.path + "/" + trimmed, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return [] }
    var found: [String] = []
    var folders = [trimmed]
    while let folder = folders.popLast() {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path + "/" + folder)) ?? []
      for name in names {
        let child = folder + "/" + name
        guard lstat(root.path + "/" + child, &info) == 0 else { continue }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: folders.append(child)
        case S_IFREG, S_IFLNK: if !recorded.contains(child) { found.append(child) }
        default: continue
        }
      }
    }
    return found.sorted()
  }

  /// The stamps of the entry's output files as the tree holds them now, taken
  /// once they match the entry (after `plan` found them equal, or `apply`).
  package static func stamps(_ entry: ActionEntry, root: URL) -> [String: FileStamp] {
    var stamps: [String: FileStamp] = [:]
    for case .file(let path, _, _) in entry.outputs {
      if let stamp = FileStamp.of(root.path + "/" + path) { stamps[path] = stamp }
    }
    return stamps
  }

  /// Brings the tree's outputs to what the entry records (`plan` first).
  package static func restore(_ entry: ActionEntry, declared: [String], root: URL, store: ContentStore) -> Result {
    switch plan(entry, declared: declared, root: root) {
    case .failure(let why): return .cannot(why.text)
    case .success(let plan): return apply(plan, root: root, store: store)
    }
  }

  /// Writes a plan's outputs from the store.
  package static func apply(_ plan: Plan, root: URL, store: ContentStore) -> Result {
    let lacking = plan.blobs.filter { !store.contains($0) }
    if !lacking.isEmpty {
      return .cannot("the cache lacks \(Set(lacking).count) of its output file(s)")
    }
    for path in plan.removals {
      // Re-checked: only a file or a link the pass did not record is removed, never a folder.
      var info = stat()
      let absolute = root.path + "/" + path
      guard lstat(absolute, &info) == 0, [S_IFREG, S_IFLNK].contains(info.st_mode & S_IFMT) else { continue }
      if unlink(absolute) != 0 && errno != ENOENT {
        return .cannot("cannot remove \(ControlText.shown(path)), which the cached pass did not write: \(String(cString: strerror(errno)))")
      }
    }
    for output in plan.writes {
      if case .failure(let why) = place(output, root: root, store: store) { return .cannot(why.text) }
    }
    // A declared folder that held no file is made again, empty.
    for path in plan.declared where !plan.entry.outputs.contains(where: { $0.path == path || $0.path.hasPrefix(path + "/") }) {
      if case .failure(let why) = folders(path, root: root, includingLast: true) { return .cannot(why.text) }
    }
    return .restored(files: plan.writes.count)
  }

  package struct Refusal: Error, Sendable {
    package var text: String
  }

  /// Whether the tree already holds `output` as the entry records it; a
  /// refusal where something other than a regular file (or link) is in the way.
  private static func matches(_ output: ActionEntry.Output, root: URL) -> Swift.Result<Bool, Refusal> {
    let absolute = root.path + "/" + output.path
    if case .failure(let why) = walkable(output.path, root: root) { return .failure(why) }
    var info = stat()
    let kind = lstat(absolute, &info) == 0 ? info.st_mode & S_IFMT : 0
    switch output {
    case .file(let path, let digest, let mode):
      if kind == 0 { return .success(false) }
      guard kind == S_IFREG else {
        return .failure(Refusal(text: "\(ControlText.shown(path)) is \(PathGuard.kindName(info.st_mode)) where the cache has a file"))
      }
      return .success(Int(info.st_size) == digest.size && UInt32(info.st_mode & 0o7777) == mode & ActionEntry.keptModeBits
                      && (try? ContentStore.digest(ofFileAt: absolute)) == digest)
    case .link(let path, let target):
      // A link already there as the entry records it needs no writing, even
      // one out of the tree (a venv's `bin/python -> /usr/bin/python3`):
      // only making such a link is refused.
      if kind == S_IFLNK, readLink(absolute) == target { return .success(true) }
      guard staysInside(target, from: path) else {
        return .failure(Refusal(text: "its cache entry has \(ControlText.shown(path)) link to \(ControlText.shown(target)), outside the tree"))
      }
      if kind == 0 { return .success(false) }
      guard kind == S_IFLNK else {
        return .failure(Refusal(text: "\(ControlText.shown(path)) is \(PathGuard.kindName(info.st_mode)) where the cache has a link"))
      }
      return .success(false)
    }
  }

  /// Refuses a link or a file where a folder on the way to `path` belongs;
  /// a folder that does not exist yet is fine (it will be made).
  private static func walkable(_ path: String, root: URL) -> Swift.Result<Void, Refusal> {
    var current = root.path
    var shown: [String] = []
    for segment in path.split(separator: "/").dropLast() {
      current += "/" + segment
      shown.append(String(segment))
      var info = stat()
      guard lstat(current, &info) == 0 else { return .success(()) }
      guard info.st_mode & S_IFMT == S_IFDIR else {
        return .failure(Refusal(text: "\(ControlText.shown(shown.joined(separator: "/"))) is \(PathGuard.kindName(info.st_mode)) where the outputs need a folder"))
      }
    }
    return .success(())
  }

  /// Writes one output the plan chose, making the folders on its way.
  private static func place(_ output: ActionEntry.Output, root: URL, store: ContentStore) -> Swift.Result<Void, Refusal> {
    if case .failure(let why) = folders(output.path, root: root, includingLast: false) { return .failure(why) }
    let absolute = root.path + "/" + output.path
    var info = stat()
    let exists = lstat(absolute, &info) == 0
    switch output {
    case .file(let path, let digest, let mode):
      // Re-checked: only a regular file (or nothing) is ever renamed over.
      if exists && info.st_mode & S_IFMT != S_IFREG {
        return .failure(Refusal(text: "\(ControlText.shown(path)) is \(PathGuard.kindName(info.st_mode)) where the cache has a file"))
      }
      do { try store.restore(digest, toAbsolute: absolute, mode: mode) } catch {
        return .failure(Refusal(text: "cannot restore \(ControlText.shown(path)): \(error)"))
      }
    case .link(let path, let target):
      if exists {
        guard info.st_mode & S_IFMT == S_IFLNK else {
          return .failure(Refusal(text: "\(ControlText.shown(path)) is \(PathGuard.kindName(info.st_mode)) where the cache has a link"))
        }
        unlink(absolute)
      }
      guard symlink(target, absolute) == 0 else {
        return .failure(Refusal(text: "cannot make the link \(ControlText.shown(path)): \(String(cString: strerror(errno)))"))
      }
    }
    return .success(())
  }

  /// Makes the folders on the way to `path` (and `path` itself when
  /// `includingLast`), refusing a link or a file where a folder belongs.
  private static func folders(_ path: String, root: URL, includingLast: Bool) -> Swift.Result<Void, Refusal> {
    var segments = path.split(separator: "/").map(String.init)
    if !includingLast { segments.removeLast() }
    var current = root.path
    var shown: [String] = []
    for segment in segments {
      current += "/" + segment
      shown.append(segment)
      var info = stat()
      if lstat(current, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else {
          return .failure(Refusal(text: "\(ControlText.shown(shown.joined(separator: "/"))) is \(PathGuard.kindName(info.st_mode)) where the outputs need a folder"))
        }
        continue
      }
      guard mkdir(current, 0o755) == 0 || errno == EEXIST else {
        return .failure(Refusal(text: "cannot make \(ControlText.shown(shown.joined(separator: "/"))): \(String(cString: strerror(errno)))"))
      }
    }
    return .success(())
  }

  /// Whether a link at `path` (tree-relative) with this target text points
  /// inside the tree: relative, its `..` all at the start (climbing real
  /// folders only) and never above the root. A `..` after a name is refused:
  /// that name may be a link itself (`b -> .`), and `b/b/../../..` then
  /// climbs out of the tree however the text reads.
  static func staysInside(_ target: String, from path: String) -> Bool {
    guard !target.hasPrefix("/") else { return false }
    var depth = path.split(separator: "/").count - 1
    var named = false
    for segment in target.split(separator: "/") where segment != "." {
      if segment == ".." {
        guard !named else { return false }
        depth -= 1
        if depth < 0 { return false }
      } else {
        named = true
      }
    }
    return true
  }

  static func readLink(_ path: String) -> String? {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBufferPointer { pointer in
      pointer.withMemoryRebound(to: CChar.self) { readlink(path, $0.baseAddress!, $0.count - 1) }
    }
    guard count >= 0 else { return nil }
    return String(validating: buffer[..<count], as: UTF8.self)
  }
}
