import DuetSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256 digests of large files (a compiler driver, duet's own binary) kept
/// across runs beside each file's stamp: device, inode, size, mode,
/// modification and change time. A file whose stamp is unchanged is not read
/// again; any other is hashed. The change time cannot be set back, so a
/// same-size swap that keeps the modification time (`cp -p`, `rsync -a`,
/// `tar x`) is hashed again, as ninja and git trust a file's metadata.
///
/// A digest is remembered only for a file last changed a while before it was
/// hashed (`settled`): on a file system with coarse times, a write in the same
/// tick as the hash would otherwise keep the old digest (git's "racy clean").
package struct FileDigestMemo {
  /// The most files one memo keeps; past it the oldest lines are dropped.
  static let capacity = 512
  /// The largest memo file read; a larger one is taken as empty.
  static let readLimit = 256 * 1024
  /// How long before the hash a file must have last changed for its digest to be remembered.
  static let settled: Int64 = 2_000_000_000

  /// The memo file (under `.duet/`), or nil to keep digests in memory only.
  let file: URL?
  /// Whether `save` writes the file (not under `--dry-run`, which writes nothing).
  let remember: Bool
  private var entries: [String: (stamp: FileStamp, digest: String)] = [:]
  private var order: [String] = []
  private var changed = false
  /// The time digests are taken at, in nanoseconds since 1970.
  private let now: Int64

  /// The memo kept in `file` (read now), or an empty one kept nowhere when `file` is nil.
  package init(file: URL?, remember: Bool = true, now: Date = Date()) {
    self.file = file
    self.remember = remember
    self.now = Int64(now.timeIntervalSince1970 * 1_000_000_000)
    guard let file, let data = try? PathGuard.readRegularFile(atAbsolute: file.path, displayPath: file.path),
          data.count <= Self.readLimit, let text = String(data: data, encoding: .utf8) else { return }
    for line in text.split(separator: "\n") {
      guard let tab = line.firstIndex(of: "\t") else { continue }
      let fields = line[..<tab].split(separator: " ")
      guard fields.count == 7, fields[6].utf8.count == 64, fields[6].allSatisfy(\.isHexDigit),
            let stamp = FileStamp.parse("\(fields[0..<6].joined(separator: " "))\tpath")["path"] else { continue }
      let path = String(line[line.index(after: tab)...])
      if entries[path] == nil { order.append(path) }
      entries[path] = (stamp, String(fields[6]))
    }
  }

  /// The hex SHA-256 of the regular file at the absolute `path` (not followed:
  /// resolve links first), from the memo when its stamp is unchanged; nil when
  /// it is not a regular file or cannot be read.
  package mutating func digest(ofAbsolute path: String) -> String? {
    guard let stamp = FileStamp.of(path), stamp.mode & UInt32(S_IFMT) == UInt32(S_IFREG) else { return nil }
    if let known = entries[path], known.stamp == stamp { return known.digest }
    guard let digest = try? Digest.sha256(fileAt: path) else { return nil }
    // Kept only when the file did not change while it was read, and changed well before.
    if FileStamp.of(path) == stamp, stamp.changed < now - Self.settled, !path.contains("\n"), !path.contains("\t") {
      if entries[path] == nil { order.append(path) }
      entries[path] = (stamp, digest)
      changed = true
    }
    return digest
  }

  /// Writes the memo back when it learnt a digest; only into a folder that is
  /// already a real folder (`.duet/`): the memo never makes one. Best effort:
  /// a memo that cannot be written costs a hash at the next run, nothing more.
  package func save() {
    guard changed, remember, let file else { return }
    var folder = stat()
    guard lstat(file.deletingLastPathComponent().path, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR else { return }
    let kept = order.suffix(Self.capacity)
    // One line per file: the stamp's six numbers, the digest, a tab, the path.
    let lines = kept.compactMap { path in
      entries[path].map { entry in
        let s = entry.stamp
        return "\(s.device) \(s.inode) \(s.size) \(s.mode) \(s.modified) \(s.changed) \(entry.digest)\t\(path)\n"
      }
    }
    try? AtomicFile.write(Data(lines.joined().utf8), toAbsolute: file.path)
  }
}
