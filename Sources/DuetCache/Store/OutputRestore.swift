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
/// runs instead. A link is made only when it points inside the lane's own
/// outputs, never into `.git` or `.duet`. Every write, rename and removal goes
/// by descriptor and name from the tree's root descriptor (`FolderWalk`).
/// Every look and write goes through the store's `StoreDisk`.
package enum OutputRestore {
  /// Why the entry cannot be restored (the lane then runs), or what was done.
  package enum Result: Sendable, Equatable {
    case restored(files: Int)
    /// Why not, a terminal line: the tree's paths in it escaped as it was made.
    case cannot(TerminalLine)
  }

  /// What restoring an entry would write: the outputs that are missing or
  /// differ on disk, or why it cannot be done.
  package struct Plan: Sendable {
    package var entry: ActionEntry
    var declared: [String]
    var writes: [ActionEntry.Output] = []
    /// Files and links in the declared output folders that the entry does not record.
    var removals: [String] = []

    /// The blobs the writes need.
    package var blobs: [BlobDigest] {
      writes.compactMap { if case .file(_, let digest, _) = $0 { return digest } else { return nil } }
    }
  }

  /// Whether every path the entry names lies at or under one of `declared`.
  static func stray(_ entry: ActionEntry, declared: [String]) -> String? {
    for output in entry.outputs {
      let inside = declared.contains { output.path == $0 || output.path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
      if !inside { return output.path }
    }
    return nil
  }

  /// Compares the tree with the entry; writes nothing. A file whose stamp
  /// equals the one in `stamps` (taken when duet last wrote or hashed it) is
  /// taken as unchanged without reading it.
  package static func plan(_ entry: ActionEntry, declared: [String], root: URL, stamps: [String: FileStamp] = [:],
                           disk: any StoreDisk = systemDisk) -> Swift.Result<Plan, Refusal> {
    if let stray = stray(entry, declared: declared) {
      return .failure(Refusal(line: "its cache entry names \(stray), outside the lane's outputs"))
    }
    var plan = Plan(entry: entry, declared: declared)
    for output in entry.outputs {
      if case .file = output, let stamp = stamps[output.path], disk.status(root.path + "/" + output.path) == stamp,
         case .success = walkable(output.path, root: root, disk: disk) {
        continue
      }
      switch matches(output, root: root, declared: declared, disk: disk) {
      case .success(true): continue
      case .success(false): plan.writes.append(output)
      case .failure(let why): return .failure(why)
      }
    }
    let recorded = Set(entry.outputs.map(\.path))
    for path in declared {
      plan.removals += unrecorded(in: path, root: root, recorded: recorded, disk: disk)
      plan.removals += temporaries(beside: path, root: root, disk: disk)
    }
    return .success(plan)
  }

  /// The temporary files a killed restore left beside the declared output
  /// file `path` (`dist/.duet-tmp-XXXXXX` beside `dist/app.zip`): duet's own,
  /// so the next restore removes them. Nothing for a declared folder (its
  /// unrecorded files are removed whatever their names) or the tree's root.
  static func temporaries(beside path: String, root: URL, disk: any StoreDisk) -> [String] {
    let parts = path.split(separator: "/")
    guard parts.count > 1, disk.status(root.path + "/" + path)?.kind != S_IFDIR,
          case .success = walkable(path, root: root, disk: disk) else { return [] }
    let folder = parts.dropLast().joined(separator: "/")
    let names = (try? disk.names(in: root.path + "/" + folder)) ?? []
    return names.filter { name in
      OutputFiles.isDuetTemporary(name) && disk.status(root.path + "/" + folder + "/" + name)?.kind == S_IFREG
    }.map { folder + "/" + $0 }.sorted()
  }

  /// The files and links under the declared output folder `path` that
  /// `recorded` does not name, found by `lstat` (no link is followed), sorted.
  static func unrecorded(in path: String, root: URL, recorded: Set<String>, disk: any StoreDisk) -> [String] {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    guard case .success = walkable(trimmed + "/x", root: root, disk: disk) else { return [] }
    guard disk.status(root.path + "/" + trimmed)?.kind == S_IFDIR else { return [] }
    var found: [String] = []
    var folders = [trimmed]
    while let folder = folders.popLast() {
      let names = (try? disk.names(in: root.path + "/" + folder)) ?? []
      for name in names {
        let child = folder + "/" + name
        guard let info = disk.status(root.path + "/" + child) else { continue }
        switch info.kind {
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
  package static func stamps(_ entry: ActionEntry, root: URL, disk: any StoreDisk = systemDisk) -> [String: FileStamp] {
    var stamps: [String: FileStamp] = [:]
    for case .file(let path, _, _) in entry.outputs {
      if let stamp = disk.status(root.path + "/" + path) { stamps[path] = stamp }
    }
    return stamps
  }

  /// Brings the tree's outputs to what the entry records (`plan` first).
  static func restore(_ entry: ActionEntry, declared: [String], root: URL, store: ContentStore) -> Result {
    switch plan(entry, declared: declared, root: root, disk: store.disk) {
    case .failure(let why): return .cannot(why.line)
    case .success(let plan): return apply(plan, root: root, store: store)
    }
  }

  /// Writes a plan's outputs from the store: every removal, write and folder
  /// by descriptor and name, walking from the tree's root descriptor
  /// (`FolderWalk`), so a link swapped in after `plan` is never followed.
  /// A blob in `checked` was hashed into the store by this run moments ago
  /// (a download): it is copied out without being hashed a second time.
  package static func apply(_ plan: Plan, root: URL, store: ContentStore, checked: Set<BlobDigest> = []) -> Result {
    let lacking = plan.blobs.filter { !store.contains($0) }
    if !lacking.isEmpty {
      return .cannot("the cache lacks \(Set(lacking).count) of its output file(s)")
    }
    let disk = store.disk, top: Int32
    do { top = try disk.openFolder(root.path) } catch { return .cannot("cannot open the tree: \(error.why)") }
    defer { disk.close(top) }
    for path in plan.removals {
      if case .failure(let why) = remove(path, root: top, disk: disk) { return .cannot(why.line) }
    }
    for output in plan.writes {
      if case .failure(let why) = place(output, root: top, store: store, checked: checked) { return .cannot(why.line) }
    }
    // A declared folder that held no file is made again, empty.
    for path in plan.declared where !plan.entry.outputs.contains(where: { $0.path == path || $0.path.hasPrefix(path + "/") }) {
      switch FolderWalk.open(path, root: top, making: true, includingLast: true, disk: disk) {
      case .failure(let why): return .cannot(why.line)
      case .success(let folder): if let folder { disk.close(folder) }
      }
    }
    return .restored(files: plan.writes.count)
  }

  /// Removes a file or link the pass did not record; re-checked by descriptor:
  /// never a folder, never through a link.
  private static func remove(_ path: String, root: Int32, disk: any StoreDisk) -> Swift.Result<Void, Refusal> {
    let folder: Int32
    switch FolderWalk.open(path, root: root, making: false, includingLast: false, disk: disk) {
    case .failure: return .success(())
    case .success(nil): return .success(())
    case .success(let open?): folder = open
    }
    defer { disk.close(folder) }
    let name = String(path.split(separator: "/").last ?? "")
    guard let kind = disk.status(name, in: folder)?.kind, [S_IFREG, S_IFLNK].contains(kind) else { return .success(()) }
    do { try disk.remove(name, in: folder) } catch {
      guard error.code == ENOENT else {
        return .failure(Refusal(line: "cannot remove \(path), which the cached pass did not write: \(error.why)"))
      }
    }
    return .success(())
  }

  /// Why a restore cannot go on: a terminal line, so a path from the entry
  /// or the tree (`x\n::error::…`) is escaped once, as the line is made.
  package struct Refusal: Error, Sendable {
    package var line: TerminalLine
  }

  /// Whether the tree already holds `output` as the entry records it; a
  /// refusal where something other than a regular file (or link) is in the way.
  private static func matches(_ output: ActionEntry.Output, root: URL, declared: [String], disk: any StoreDisk) -> Swift.Result<Bool, Refusal> {
    let absolute = root.path + "/" + output.path
    if case .failure(let why) = walkable(output.path, root: root, disk: disk) { return .failure(why) }
    let info = disk.status(absolute)
    let kind = info?.kind ?? 0, stMode = mode_t(info?.mode ?? 0)
    switch output {
    case .file(let path, let digest, let mode):
      guard let info else { return .success(false) }
      guard kind == S_IFREG else {
        return .failure(Refusal(line: "\(path) is \(PathGuard.kindName(stMode)) where the cache has a file"))
      }
      return .success(Int(info.size) == digest.size && info.mode & 0o7777 == mode & ActionEntry.keptModeBits
                      && (try? ContentStore.digest(ofFileAt: absolute, disk: disk)) == digest)
    case .link(let path, let target):
      // A link already there as the entry records it needs no writing, even
      // one out of the tree (a venv's `bin/python -> /usr/bin/python3`):
      // only making such a link is refused.
      if kind == S_IFLNK, disk.linkTarget(absolute) == target { return .success(true) }
      guard staysInside(target, from: path) else {
        return .failure(Refusal(line: "its cache entry has \(path) link to \(target), outside the tree"))
      }
      // Inside the tree is not enough: a link into `.git` or another lane's
      // files would let the lane's next run write there (issue 51, item 11).
      guard staysInOutputs(target, from: path, declared: declared) else {
        return .failure(Refusal(line: "its cache entry has \(path) link to \(target), outside the lane's outputs"))
      }
      if kind == 0 { return .success(false) }
      guard kind == S_IFLNK else {
        return .failure(Refusal(line: "\(path) is \(PathGuard.kindName(stMode)) where the cache has a link"))
      }
      return .success(false)
    }
  }

  /// Refuses a link or a file where a folder on the way to `path` belongs;
  /// a folder that does not exist yet is fine (it will be made).
  private static func walkable(_ path: String, root: URL, disk: any StoreDisk) -> Swift.Result<Void, Refusal> {
    var current = root.path
    var walked: [String] = []
    for segment in path.split(separator: "/").dropLast() {
      current += "/" + segment
      walked.append(String(segment))
      guard let info = disk.status(current) else { return .success(()) }
      guard info.kind == S_IFDIR else {
        return .failure(Refusal(line: "\(walked.joined(separator: "/")) is \(PathGuard.kindName(mode_t(info.mode))) where the outputs need a folder"))
      }
    }
    return .success(())
  }

  /// Writes one output the plan chose, making the folders on its way, by
  /// descriptor and name from the tree's root.
  private static func place(_ output: ActionEntry.Output, root: Int32, store: ContentStore, checked: Set<BlobDigest>) -> Swift.Result<Void, Refusal> {
    let disk = store.disk, folder: Int32
    switch FolderWalk.open(output.path, root: root, making: true, includingLast: false, disk: disk) {
    case .failure(let why): return .failure(why)
    case .success(nil): return .failure(Refusal(line: "cannot make the folder of \(output.path)"))
    case .success(let open?): folder = open
    }
    defer { disk.close(folder) }
    let name = String(output.path.split(separator: "/").last ?? "")
    let there = disk.status(name, in: folder)
    let kind = there?.kind ?? 0, mode = mode_t(there?.mode ?? 0)
    switch output {
    case .file(let path, let digest, let fileMode):
      // Re-checked: only a regular file (or nothing) is ever renamed over.
      if kind != 0 && kind != S_IFREG {
        return .failure(Refusal(line: "\(path) is \(PathGuard.kindName(mode)) where the cache has a file"))
      }
      do { try store.restore(digest, into: folder, name: name, mode: fileMode, shown: "\(path)", checked: checked.contains(digest)) } catch {
        if case .io(let why) = error { return .failure(Refusal(line: why)) }
        return .failure(Refusal(line: "cannot restore \(path): \(error)"))
      }
    case .link(let path, let target):
      if kind != 0 {
        guard kind == S_IFLNK else {
          return .failure(Refusal(line: "\(path) is \(PathGuard.kindName(mode)) where the cache has a link"))
        }
        try? disk.remove(name, in: folder)
      }
      do { try disk.makeLink(name, in: folder, to: target) } catch {
        return .failure(Refusal(line: "cannot make the link \(path): \(error.why)"))
      }
    }
    return .success(())
  }

  /// Whether a link at `path` with this target text (which `staysInside`
  /// the tree) points at or under one of the lane's `declared` outputs, and
  /// never into `.git` or `.duet`: the target is read from the link's folder,
  /// its leading `..` climbing real folders only.
  static func staysInOutputs(_ target: String, from path: String, declared: [String]) -> Bool {
    guard staysInside(target, from: path) else { return false }
    var resolved = path.split(separator: "/").dropLast().map(String.init)
    for segment in target.split(separator: "/") where segment != "." {
      if segment != ".." {
        resolved.append(String(segment))
      } else if resolved.popLast() == nil {
        return false
      }
    }
    if let first = resolved.first, first == ".git" || first == ".duet" { return false }
    let joined = resolved.joined(separator: "/")
    return declared.contains { output in
      let trimmed = output.hasSuffix("/") ? String(output.dropLast()) : output
      return joined == trimmed || joined.hasPrefix(trimmed + "/")
    }
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
}
