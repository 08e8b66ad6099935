import DuetSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `duet cache stats`, `prune` and `verify` over the local store: what it
/// holds, trimming it to a size (least recently used blobs first, then the
/// entries that named them), and every blob hashed again.
package enum StoreMaintenance {
  package struct Stats: Sendable, Equatable {
    package var blobs = 0
    package var bytes = 0
    package var entries = 0
    /// Seconds since 1970 of the least recently used blob; nil when there is none.
    var oldestUse: Double?
  }

  struct Blob {
    var hash: String
    var path: String
    var size: Int
    var used: Double
  }

  /// Every blob file in the store (names that are not a SHA-256 are not blobs).
  /// Only a real folder is walked: a shard (or `cas/`) that is a link to a
  /// folder elsewhere is refused, so verify and prune never delete files
  /// outside the store (issue 51).
  static func blobs(_ store: ContentStore) -> [Blob] {
    let cas = store.folder.appendingPathComponent("cas").path, disk = store.disk
    var found: [Blob] = []
    guard isRealFolder(cas, disk) else { return [] }
    for shard in (try? disk.names(in: cas)) ?? [] where shard.count == 2 && isRealFolder(cas + "/" + shard, disk) {
      for name in (try? disk.names(in: cas + "/" + shard)) ?? [] where BlobDigest.isHash(name) {
        let path = cas + "/" + shard + "/" + name
        guard let info = disk.status(path), info.kind == S_IFREG else { continue }
        found.append(Blob(hash: name, path: path, size: Int(info.size), used: modified(info)))
      }
    }
    return found
  }

  /// Whether `path` is a folder itself, not a link to one.
  static func isRealFolder(_ path: String, _ disk: any StoreDisk) -> Bool {
    disk.status(path)?.kind == S_IFDIR
  }

  /// Seconds since 1970 of a file's last modification: a blob's last use.
  static func modified(_ info: FileStamp) -> Double {
    Double(info.modified) / 1e9
  }

  static func entryKeys(_ store: ContentStore) -> [String] {
    ((try? store.disk.names(in: store.folder.appendingPathComponent("ac").path)) ?? []).filter(BlobDigest.isHash).sorted()
  }

  package static func stats(_ store: ContentStore) -> Stats {
    let all = blobs(store)
    return Stats(blobs: all.count, bytes: all.reduce(0) { $0 + $1.size }, entries: entryKeys(store).count, oldestUse: all.map(\.used).min())
  }

  /// How old a temporary file in the store must be to count as left over.
  static let leftoverAge: Double = 3600

  package struct Pruned: Sendable, Equatable {
    package var blobs = 0
    package var bytes = 0
    package var entries = 0
    package var left = Stats()
  }

  /// Removes the least recently used blobs until the store holds at most
  /// `maxBytes`, then every entry that names a blob no longer there (it could
  /// restore nothing), and leftovers of interrupted writes.
  package static func prune(_ store: ContentStore, maxBytes: Int) -> Pruned {
    var pruned = Pruned()
    let disk = store.disk
    var all = blobs(store).sorted { $0.used < $1.used }
    var total = all.reduce(0) { $0 + $1.size }
    while total > maxBytes, !all.isEmpty {
      let blob = all.removeFirst()
      if disk.remove(blob.path) {
        total -= blob.size
        pruned.blobs += 1
        pruned.bytes += blob.size
      }
    }
    let kept = Set(all.map(\.hash))
    for key in entryKeys(store) {
      guard let bytes = store.entryBytes(key), let entry = try? ActionEntry.decode(bytes) else {
        if disk.remove(store.entryPath(key)) { pruned.entries += 1 }
        disk.remove(store.stampPath(key))
        continue
      }
      let outputs = entry.blobs.filter { $0 != entry.log }
      if outputs.contains(where: { !kept.contains($0.hash) }), disk.remove(store.entryPath(key)) {
        pruned.entries += 1
        disk.remove(store.stampPath(key))
      }
    }
    // Leftovers of interrupted writes only: a file written in the last hour may
    // be a blob another verify is storing or downloading right now.
    let tmp = store.folder.appendingPathComponent("tmp").path
    let cutoff = Date().timeIntervalSince1970 - leftoverAge
    for name in isRealFolder(tmp, disk) ? (try? disk.names(in: tmp)) ?? [] : [] {
      if let info = disk.status(tmp + "/" + name), modified(info) < cutoff { disk.remove(tmp + "/" + name) }
    }
    pruned.left = stats(store)
    return pruned
  }

  package struct Verified: Sendable, Equatable {
    package var checked = 0
    package var bytes = 0
    /// Blobs whose bytes were not their name, removed.
    package var damaged: [String] = []
  }

  /// Hashes every blob again; a blob whose bytes are not its name is removed
  /// (a lane that needs it then runs, or fetches it again).
  package static func verify(_ store: ContentStore) -> Verified {
    var verified = Verified()
    for blob in blobs(store).sorted(by: { $0.hash < $1.hash }) {
      verified.checked += 1
      verified.bytes += blob.size
      let digest = try? ContentStore.digest(ofFileAt: blob.path, disk: store.disk)
      if digest?.hash != blob.hash {
        store.disk.remove(blob.path)
        verified.damaged.append(blob.hash)
      }
    }
    return verified
  }
}
