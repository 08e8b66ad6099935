import DuetSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The remote cache as a verify uses it: action entries fetched by key, blobs
/// fetched into the local store (each checked against its digest there), and,
/// when told to upload, a pass's blobs and entry written back.
///
/// A server that fails changes no verdict: the first failure is one warning
/// (`remote cache <url>: ...`, the URL without credentials) and the remote is
/// not asked again in this run; the lanes run as if it had nothing. A server
/// that answers a blob with bytes that are not its name is one warning too,
/// and nothing more is read from it in this run (what it lacks, or holds
/// damaged, is still uploaded). With a signing key, an entry without a valid
/// signature is never served.
///
/// What makes it safe: one thread at a time asks it anything (the verify's,
/// before the lanes start and after they end); only `cancel`, which touches
/// nothing but the transport's own thread-safe flag, comes from another.
package final class RemoteCache: @unchecked Sendable {
  package let name: String
  package let upload: Bool
  private let transport: any RemoteTransport
  private let signingKey: [UInt8]?
  private let store: ContentStore
  private let maxBlobBytes: Int
  private var broken = false
  /// Set by a blob that was not its name: nothing more is read in this run.
  private var untrusted = false
  /// Blobs this run was sent wrong bytes for: uploaded again, whatever HEAD says.
  private var damaged = Set<BlobDigest>()
  /// Entries the server holds that this run could not use (not an entry,
  /// another action's, unsigned): uploaded again like missing ones.
  private var refused = Set<String>()
  private var warnedUnsigned = false
  /// An entry that is not one (a proxy's web page answers every key) is said once.
  private var warnedUnusable = false
  private(set) var warnings: [String] = []

  /// `name` is the base URL as messages may show it (no userinfo).
  package init(transport: any RemoteTransport, name: String, upload: Bool, signingKey: [UInt8]?, store: ContentStore, maxBlobBytes: Int = 2 << 30) {
    self.transport = transport
    self.name = name
    self.upload = upload
    self.signingKey = signingKey
    self.store = store
    self.maxBlobBytes = maxBlobBytes
  }

  /// Warnings made since the last call, each said once.
  package func takeWarnings() -> [String] {
    defer { warnings.removeAll() }
    return warnings
  }

  private func fail(_ why: String) {
    guard !broken else { return }
    broken = true
    // The transport's sentence names the cache already (`remote cache <url>: GET ...`).
    let sentence = why.hasPrefix("remote cache") ? why : "remote cache \(name): \(why)"
    warnings.append("\(sentence); running without it for the rest of this run")
  }

  /// Ends the request under way and every later one (Ctrl-C, from any thread).
  package func cancel() { transport.cancel() }

  private func unusable(_ why: String) {
    guard !warnedUnusable else { return }
    warnedUnusable = true
    warnings.append("remote cache \(name): \(why) (any other unusable entry is not named)")
  }

  /// The entries the remote holds for `keys` (lane names by key, for messages).
  package func entries(_ keys: [String: String]) -> [String: ActionEntry] {
    held(keys.mapValues { "lane \($0)" }).compactMapValues { held in
      if case .entry(let entry) = held { return entry }
      return nil
    }
  }

  /// What the remote holds under a key: an entry duet may use, nothing (404),
  /// or something it may not use (not an entry, another action's, unsigned
  /// while a key is set), which is neither served nor taken for a free slot.
  package enum Held: Sendable {
    case entry(ActionEntry)
    case missing
    case unusable
  }

  /// Whether the remote may still be read in this run (no request failed, no blob came damaged).
  var readable: Bool { !broken && !untrusted }

  /// What the remote holds under each of `keys` (each named by `keys`'s value
  /// in messages: `lane kit`); empty when it cannot be read (then one warning said why).
  package func held(_ keys: [String: TerminalLine]) -> [String: Held] {
    guard !broken, !untrusted, !keys.isEmpty else { return [:] }
    let ordered = keys.keys.sorted()
    // Entries are read into memory and thrown away: asking (a `--dry-run` too)
    // writes no file, in the tree or anywhere else.
    let results = transport.read(ordered.map { RemoteKey(.ac, $0) }, maxBytes: ActionEntry.maxEncodedSize)
    var found: [String: Held] = [:]
    for (offset, key) in ordered.enumerated() where offset < results.count {
      switch results[offset].result {
      case .missing: found[key] = .missing
      case .failed(let why):
        fail(why)
        return [:]
      case .done: found[key] = checked(results[offset].bytes, key: key, what: keys[key] ?? "\(key)")
      }
    }
    return found
  }

  /// An entry read under `key`, or `unusable` (said once) when duet may not use it.
  private func checked(_ bytes: [UInt8], key: String, what: TerminalLine) -> Held {
    let entry: ActionEntry
    do { entry = try ActionEntry.decode(bytes) } catch {
      refused.insert(key)
      unusable("the entry for \(what) is not usable (\(error)); \(what.text.hasPrefix("lane ") ? "the lane runs" : "it is passed over")")
      return .unusable
    }
    guard entry.key == key else {
      refused.insert(key)
      unusable("the entry stored for \(what) names another action; \(what.text.hasPrefix("lane ") ? "the lane runs" : "it is passed over")")
      return .unusable
    }
    if let signingKey, !entry.isSigned(by: signingKey) {
      refused.insert(key)
      if !warnedUnsigned {
        warnedUnsigned = true
        warnings.append("remote cache \(name): an entry (\(what)) is not signed with DUET_REMOTE_CACHE_KEY; unsigned entries are not served")
      }
      return .unusable
    }
    return .entry(entry)
  }

  /// Downloads blobs the local store lacks; returns those it could not get.
  /// `arrived` hears of each blob as it is checked into the store (on this
  /// thread, while others still download).
  @discardableResult
  package func fetch(_ digests: [BlobDigest], arrived: (BlobDigest) -> Void = { _ in }) -> Set<BlobDigest> {
    let wanted = Array(Set(digests.filter { !store.contains($0) })).sorted { $0.hash < $1.hash }
    guard !wanted.isEmpty else { return [] }
    guard !broken, !untrusted else { return Set(wanted) }
    var failed = Set<BlobDigest>()
    var requests: [RemoteGet] = []
    var paths: [String] = []
    var digests: [BlobDigest] = []
    for digest in wanted {
      guard digest.size <= maxBlobBytes, let (fd, path) = try? store.temporaryFile() else {
        failed.insert(digest)
        continue
      }
      store.disk.close(fd)
      paths.append(path)
      digests.append(digest)
      requests.append(RemoteGet(key: RemoteKey(.cas, digest.hash), destination: path, maxBytes: digest.size))
    }
    var told = Set<Int>()
    let results = transport.get(requests) { offset, result, written in
      guard offset < requests.count, told.insert(offset).inserted else { return }
      if take(result, path: paths[offset], as: digests[offset], written: written) {
        arrived(digests[offset])
      } else {
        failed.insert(digests[offset])
      }
    }
    // A transport that answered fewer than asked: the rest did not come.
    for offset in requests.indices where !told.contains(offset) {
      if take(offset < results.count ? results[offset] : .failed("no answer"), path: paths[offset], as: digests[offset], written: nil) {
        arrived(digests[offset])
      } else {
        failed.insert(digests[offset])
      }
    }
    return failed
  }

  /// One download ended: a blob whose bytes are its name goes into the store
  /// (checked by the digest taken as it was written, or read back); anything
  /// else is removed. Whether the store now holds it.
  private func take(_ result: RemoteResult, path: String, as digest: BlobDigest, written: BlobDigest?) -> Bool {
    switch result {
    case .done:
      do { try store.adopt(path, as: digest, written: written) } catch {
        wrongBytes(digest, error)
        return false
      }
      return true
    case .missing:
      store.disk.remove(path)
      return false
    case .failed(let why):
      store.disk.remove(path)
      fail(why)
      return false
    }
  }

  /// A blob whose bytes are not its name: said once for the run, then no
  /// more is read from this server; the blob is uploaded again if this run may.
  private func wrongBytes(_ digest: BlobDigest, _ error: any Error) {
    damaged.insert(digest)
    guard !untrusted else { return }
    untrusted = true
    warnings.append("remote cache \(name): blob \(digest.hash.prefix(12))… does not match its name (\(error)); "
                    + "nothing more is read from it in this run")
  }

  /// Uploads what the server lacks: every entry in `written` (passes of this
  /// run), and each entry in `served` (passes this run was served from its
  /// own store) that the server does not hold or holds unusable. The blobs of
  /// all of them go first, each one the server lacks, holds at another size
  /// (HEAD's `Content-Length`) or sent this run damaged; an entry is never
  /// written before its blobs. Entries are signed with the key when one is set.
  package func put(_ written: [ActionEntry], served: [ActionEntry] = []) {
    guard upload, !broken, !written.isEmpty || !served.isEmpty else { return }
    var entries = written
    let local = served.filter { entry in entry.blobs.allSatisfy(store.contains) }
    if !local.isEmpty {
      let held = transport.head(local.map { RemoteKey(.ac, $0.key) })
      for (offset, entry) in local.enumerated() {
        switch offset < held.count ? held[offset] : .missing {
        case .done: if refused.contains(entry.key) { entries.append(entry) }
        case .missing: entries.append(entry)
        case .failed(let why): fail(why); return
        }
      }
    }
    guard putBlobs(of: written + local), !entries.isEmpty else { return }
    var temporaries: [String] = []
    defer { temporaries.forEach { store.disk.remove($0) } }
    var entryPuts: [RemotePut] = []
    for entry in entries {
      let bytes = (signingKey.map { entry.signed(with: $0) } ?? entry).encoded()
      guard let (fd, path) = try? store.temporaryFile() else { continue }
      let failure = bytes.withUnsafeBytes { store.disk.write($0, to: fd) }
      store.disk.close(fd)
      temporaries.append(path)
      if failure == nil { entryPuts.append(RemotePut(key: RemoteKey(.ac, entry.key), source: path)) }
    }
    for result in transport.put(entryPuts) {
      if case .failed(let why) = result { fail(why); return }
    }
  }

  /// Uploads the blobs of `entries` the server lacks, holds at another size,
  /// or sent this run damaged; false when a request failed.
  private func putBlobs(of entries: [ActionEntry]) -> Bool {
    let blobs = Array(Set(entries.flatMap(\.blobs))).sorted { $0.hash < $1.hash }
    let present = transport.head(blobs.map { RemoteKey(.cas, $0.hash) })
    var puts: [RemotePut] = []
    for (offset, digest) in blobs.enumerated() {
      if offset < present.count, case .done(let size) = present[offset], size == digest.size || size < 0, !damaged.contains(digest) { continue }
      if offset < present.count, case .failed(let why) = present[offset] { fail(why); return false }
      puts.append(RemotePut(key: RemoteKey(.cas, digest.hash), source: store.blobPath(digest.hash)))
    }
    for result in transport.put(puts) {
      if case .failed(let why) = result { fail(why); return false }
    }
    return true
  }
}
