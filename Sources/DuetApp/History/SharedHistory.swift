import Foundation
import DuetCache
import DuetHistory
import DuetSupport

/// A team's runs through the remote cache (issue 55): a run recorded here is
/// uploaded as a history store file (a blob, `HistoryStore.export`: no root, no
/// path of this machine) under a slot of its commit (`CommitSlots`), and
/// `duet history pull` reads the slots of the last commits and merges the runs
/// it lacks with `history merge`'s checks. Uploading is on only where the
/// remote takes uploads (`DUET_REMOTE_CACHE_UPLOAD=1`), with entries signed
/// when `DUET_REMOTE_CACHE_KEY` is set, which readers then require. Nothing
/// here fails a command: problems come back as warnings.
enum SharedHistory {
  /// What a pull found and merged.
  struct Pulled: Sendable, Equatable {
    var commits = 0
    /// Runs the slots named (each once), new or not.
    var found = 0
    var merged = 0
    var steps = 0
    /// The runs merged by where they came from.
    var origins: [String: Int] = [:]
    var warnings: [String] = []
  }

  /// How many times an upload takes a slot again when another upload of the
  /// same commit took it at the same moment.
  static let uploadTries = 3

  /// Uploads the runs `ids` of `store` that have a commit, each commit's under
  /// its first free slot, leaving out those its slots already name; returns warnings.
  static func upload(runs ids: Set<String>, of store: HistoryStore, remote: RemoteCache, contentStore: ContentStore,
                             scrub: HistoryStore.Scrub, duetVersion: String) -> [String] {
    guard remote.upload, !ids.isEmpty else { return [] }
    let commits: [String: String]
    do { commits = try store.commits(ofRuns: ids) } catch { return ["history: cannot read the runs to upload: \(error)"] }
    var warnings: [String] = []
    for (commit, runs) in Dictionary(grouping: commits.keys, by: { commits[$0]! }).sorted(by: { $0.key < $1.key }) {
      if let warning = upload(Set(runs), commit: commit, of: store, remote: remote, contentStore: contentStore, scrub: scrub, duetVersion: duetVersion) {
        warnings.append(warning)
      }
    }
    return warnings
  }

  /// Uploads runs of one commit at its first free slot, then reads the slot
  /// back: when another upload took it at the same moment, tries the next.
  private static func upload(_ ids: Set<String>, commit: String, of store: HistoryStore, remote: RemoteCache, contentStore: ContentStore,
                             scrub: HistoryStore.Scrub, duetVersion: String) -> String? {
    for _ in 0..<uploadTries {
      guard let slots = readSlots(commit, remote: remote) else { return nil }
      let sending = ids.subtracting(slots.known)
      guard !sending.isEmpty else { return nil }
      guard let free = slots.free else {
        return "history: the \(CommitSlots.maxSlots) run slots of commit \(commit.prefix(12)) on remote cache \(remote.name) are taken; its runs here are not uploaded"
      }
      let blob: BlobDigest
      do { blob = try exported(sending, of: store, contentStore: contentStore, scrub: scrub) } catch { return "history: cannot export runs to upload: \(error)" }
      let entry = CommitSlots.entry(commit: commit, slot: free, runIDs: Array(sending), blob: blob, duetVersion: duetVersion)
      remote.put([entry])
      guard case .entry(let stored)? = remote.held([entry.key: label(commit)])[entry.key] else { return nil }
      if sending.isSubset(of: Set(CommitSlots.runs(in: stored).map(\.id))) { return nil }
    }
    return "history: other uploads of commit \(commit.prefix(12)) kept taking the same slot; its runs here are not uploaded"
  }

  /// The runs as one store file in the content store.
  private static func exported(_ ids: Set<String>, of store: HistoryStore, contentStore: ContentStore, scrub: HistoryStore.Scrub) throws -> BlobDigest {
    let (fd, path) = try contentStore.temporaryFile()
    close(fd)
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) } }
    try store.export(runs: ids, to: path, scrub: scrub)
    return try contentStore.insert(fileAt: path)
  }

  /// `runs of commit abc123…`, as a remote cache's warnings name a slot.
  private static func label(_ commit: String) -> TerminalLine { "the runs of commit \(String(commit.prefix(12)))" }

  /// A commit's slots read in order up to the first missing one: the runs they
  /// name and that free slot (nil when all are taken); nil when the remote cannot be read.
  private static func readSlots(_ commit: String, remote: RemoteCache) -> (free: Int?, known: Set<String>)? {
    var known = Set<String>()
    for slot in 0..<CommitSlots.maxSlots {
      let key = CommitSlots.key(commit: commit, slot: slot)
      switch remote.held([key: label(commit)])[key] {
      case nil: return nil
      case .missing?: return (slot, known)
      case .entry(let entry)?: known.formUnion(CommitSlots.runs(in: entry).map(\.id))
      case .unusable?: continue
      }
    }
    return (nil, known)
  }

  /// The entries of every commit's slots, read a slot at a time for all the
  /// commits still going, so 100 commits cost a few rounds of parallel requests.
  private static func allSlots(_ commits: [String], remote: RemoteCache) -> [(commit: String, entry: ActionEntry)] {
    var going = commits
    var found: [(commit: String, entry: ActionEntry)] = []
    for slot in 0..<CommitSlots.maxSlots where !going.isEmpty {
      let keys = Dictionary(going.map { (CommitSlots.key(commit: $0, slot: slot), $0) }, uniquingKeysWith: { a, _ in a })
      let held = remote.held(keys.mapValues(label))
      guard !held.isEmpty else { return found }
      going = going.filter { commit in
        switch held[CommitSlots.key(commit: commit, slot: slot)] {
        case .entry(let entry)?:
          found.append((commit, entry))
          return true
        case .unusable?: return true
        case .missing?, nil: return false
        }
      }
    }
    return found
  }

  /// Fetches and merges into `store` the runs the slots of `commits` name that
  /// it lacks, each blob checked against its name and each store against
  /// `history merge`'s checks, every run against the commit it was found under.
  static func pull(commits: [String], into store: HistoryStore, remote: RemoteCache, contentStore: ContentStore) -> Pulled {
    var pulled = Pulled(commits: commits.count)
    let known: Set<String>
    do { known = Set(try store.runIDs()) } catch {
      pulled.warnings.append("history: cannot read \(error)")
      return pulled
    }
    // Each run once, from the first slot naming it; then grouped by blob.
    var wanted: [String: (commit: String, blob: BlobDigest)] = [:]
    for (commit, entry) in allSlots(commits, remote: remote) {
      for run in CommitSlots.runs(in: entry) where wanted[run.id] == nil && !known.contains(run.id) {
        wanted[run.id] = (commit, run.blob)
      }
      pulled.found += CommitSlots.runs(in: entry).count
    }
    let blobs = Dictionary(grouping: wanted.keys, by: { BlobKey(commit: wanted[$0]!.commit, blob: wanted[$0]!.blob) })
    let missing = remote.fetch(blobs.keys.map(\.blob))
    var merged = Set<String>()
    let fetched = blobs.filter { !missing.contains($0.key.blob) }.sorted { (left: (key: BlobKey, value: [String]), right: (key: BlobKey, value: [String])) -> Bool in
      left.key.order < right.key.order
    }
    // One transaction for every blob: a pull of 100 commits is one write.
    let results = store.merge(fetched.map { (contentStore.blobPath($0.key.blob.hash), Set($0.value), $0.key.commit) })
    for ((key, ids), result) in zip(fetched, results) {
      switch result {
      case .success(let added):
        pulled.merged += added.runs
        pulled.steps += added.steps
        merged.formUnion(ids)
      case .failure(let error):
        pulled.warnings.append("history pull: runs of commit \(key.commit.prefix(12)) not merged: \(error)")
      }
    }
    pulled.origins = (try? store.origins(ofRuns: merged)) ?? [:]
    pulled.warnings = remote.takeWarnings() + pulled.warnings
    return pulled
  }

  private struct BlobKey: Hashable {
    var commit: String
    var blob: BlobDigest
    /// By commit, then by blob: the order the pulled stores are merged in.
    var order: String { commit + " " + blob.hash }
  }
}
