import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files under a folder of a tree, each with what `lstat` says of it. The
/// watcher keeps one of the whole tree: what a folder held when it moves out
/// (its files are gone, and named), and what a rescan compares against when
/// the kernel's events cannot be trusted (an overflow, the tree made again, a
/// folder past the watch limit, which is scanned instead of watched).
package struct TreeScan: Equatable, Sendable {
  /// What changes when a file is written, replaced or made again.
  struct Stamp: Equatable, Sendable {
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int
    var mode: UInt32

    /// The stamp of the file at `path` (not followed if a link), or nil when there is none.
    static func of(_ path: String) -> Stamp? {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      #if canImport(Darwin)
      let time = info.st_mtimespec
      #else
      let time = info.st_mtim
      #endif
      return Stamp(inode: UInt64(info.st_ino), size: Int64(info.st_size), seconds: Int(time.tv_sec),
                   nanoseconds: Int(time.tv_nsec), mode: UInt32(info.st_mode))
    }

    var isFolder: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
  }

  /// Root-relative path to stamp; files only (folders are walked, not listed).
  var files: [String: Stamp] = [:]

  init() {}

  /// The files under `folder` (root-relative, "" for the root) of `root`,
  /// names in `ignoring` skipped at any depth.
  static func scan(_ folder: String, root: String, ignoring: Set<String>) -> TreeScan {
    var scan = TreeScan()
    // A folder replaced by a link since its event (`rm -r a; ln -s / a`) is not
    // followed out of the tree: only a real folder is listed (the walk below
    // reads every entry with lstat, so links deeper down are never followed).
    guard folder.isEmpty || Stamp.of(root + "/" + folder)?.isFolder == true else { return scan }
    var folders = [folder]
    while let next = folders.popLast() {
      let absolute = next.isEmpty ? root : root + "/" + next
      for name in (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? [] where !ignoring.contains(name) {
        let path = next.isEmpty ? name : next + "/" + name
        guard let stamp = Stamp.of(root + "/" + path) else { continue }
        if stamp.isFolder { folders.append(path) } else { scan.files[path] = stamp }
      }
    }
    return scan
  }

  /// The paths under `folder` ("" for all): `folder` itself or below it.
  func paths(under folder: String) -> [String] {
    guard !folder.isEmpty else { return Array(files.keys) }
    return files.keys.filter { $0.hasPrefix(folder + "/") }
  }

  /// The paths made, changed or gone from `self` to `now`, within `folder` ("" for all).
  func differences(to now: TreeScan, under folder: String = "") -> [String] {
    var changed = now.paths(under: folder).filter { files[$0] != now.files[$0] }
    changed += paths(under: folder).filter { now.files[$0] == nil }
    return changed
  }

  /// Takes `now` as what is under `folder`: entries there that `now` lacks are dropped.
  mutating func replace(under folder: String, with now: TreeScan) {
    for path in paths(under: folder) where now.files[path] == nil { files[path] = nil }
    files.merge(now.files) { $1 }
  }

  /// Whether the file at `path` under `root` is now other than this scan saw
  /// it: written, made, replaced or gone. A file neither here nor there now
  /// (made and gone again since, as `sed -i`'s temporary) is no difference.
  package func differs(_ path: String, root: String) -> Bool {
    files[path] != Stamp.of(root + "/" + path).flatMap { $0.isFolder ? nil : $0 }
  }

  /// Notes what `path` is now after an event named it; false when it was
  /// neither known before nor is there now (made and gone again: no change).
  mutating func update(_ path: String, root: String) -> Bool {
    let before = files[path]
    let now = Stamp.of(root + "/" + path).flatMap { $0.isFolder ? nil : $0 }
    files[path] = now
    return before != nil || now != nil
  }
}
