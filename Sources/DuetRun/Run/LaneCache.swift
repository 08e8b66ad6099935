import DuetCache
import DuetModel
import DuetProcess
import DuetSupport
import Foundation
import DuetHistory

/// A verify's side of the content-addressed cache: the action key of each
/// lane, the entries found for them (local `.duet/cache/ac`, then the remote),
/// the outputs a cached lane gets back, the outputs a passing lane leaves in
/// the store, and the entries written (and uploaded) after the run.
///
/// Used from the run loop's thread only, but for `capture`'s copying, which
/// a worker does and whose result the loop keeps.
package final class LaneCache {
  /// Where a usable entry came from.
  enum Source: Sendable, Equatable {
    case local, remote
  }

  let store: ContentStore
  let remote: RemoteCache?
  /// The entry found for each lane, by lane index, with where it came from.
  private(set) var entries: [Int: (entry: ActionEntry, source: Source)] = [:]
  /// What each passing lane's outputs held when it passed, stored.
  private var captured: [Int: OutputFiles] = [:]
  /// The entries of lanes served from the local store: an uploading run puts
  /// those the remote lacks (an earlier upload failed, or never ran).
  private var servedLocally: [Int: ActionEntry] = [:]
  private var localWarnings: [TerminalLine] = []

  package init(store: ContentStore, remote: RemoteCache?) {
    self.store = store
    self.remote = remote
  }

  /// The key an entry is stored under: the lane's fingerprint (tree-relative:
  /// paths, never the tree's place on disk) and its declared outputs.
  package static func actionKey(fingerprint: String, outputs: [String]) -> String {
    Digest.sha256("duet-action v1\nfingerprint \(fingerprint)\n" + outputs.map { "output \($0)\n" }.joined())
  }

  /// Looks up entries for `keys` (lane index to action key): the local store
  /// first, the remote for what it lacks.
  func lookUp(_ keys: [Int: String], lanes: [Lane]) {
    var wanted: [String: String] = [:]
    for (index, key) in keys {
      entries[index] = nil
      if let bytes = store.entryBytes(key), let entry = try? ActionEntry.decode(bytes), entry.key == key {
        entries[index] = (entry, .local)
      } else {
        wanted[key] = lanes[index].name
      }
    }
    guard let remote, !wanted.isEmpty else { return }
    let found = remote.entries(wanted)
    for (index, key) in keys where entries[index] == nil {
      if let entry = found[key] { entries[index] = (entry, .remote) }
    }
  }

  /// Gives cached lanes their outputs back: each lane's outputs compared with
  /// its entry, the blobs the store lacks fetched from the remote in one batch,
  /// and each lane's files written on a worker as soon as its blobs are in the
  /// store, while the rest download (issue 51: a restore within reach of one
  /// `curl --parallel`). A lane with no `outputs:` needs nothing. The log of
  /// the pass that earned the entry comes back to `logPaths[index]`.
  func restore(_ indices: [Int], lanes: [Lane], root: URL, logPaths: [Int: String]) -> [Int: (result: OutputRestore.Result, log: String?)] {
    var results: [Int: (result: OutputRestore.Result, log: String?)] = [:]
    var plans: [Int: OutputRestore.Plan] = [:]
    var stampsBefore: [Int: [String: FileStamp]] = [:]
    for index in indices {
      let lane = lanes[index]
      guard let (entry, _) = entries[index] else {
        results[index] = (lane.outputs.isEmpty ? .restored(files: 0) : .cannot("no cache entry records its outputs"), nil)
        continue
      }
      let stamps = lane.outputs.isEmpty ? [:] : store.stamps(entry.key)
      stampsBefore[index] = stamps
      switch OutputRestore.plan(entry, declared: lane.outputs, root: root, stamps: stamps, disk: store.disk) {
      case .success(let plan): plans[index] = plan
      case .failure(let why): results[index] = (.cannot(why.line), nil)
      }
    }
    let written = writeAsBlobsArrive(plans, root: root, stampsBefore: stampsBefore, logPaths: logPaths)
    for (index, plan) in plans {
      guard let lane = written[index] else { continue }
      if case .restored = lane.result { keep(index, plan.entry, keptBy: lane) }
      results[index] = (lane.result, lane.log)
    }
    return results
  }

  /// What a worker did for one cached lane: its files, its log, and the
  /// remote's entry kept in the local store (or why not).
  private struct LaneRestore: Sendable {
    var result: OutputRestore.Result
    var log: String?
    var entryKept = false
    var warning: TerminalLine?
  }

  /// Fetches the blobs `plans` lack and writes each lane on a worker once the
  /// blobs it waits for (outputs and log) have arrived; lanes that wait for
  /// none start at once, and those whose blobs did not come start at the end
  /// (`OutputRestore.apply` then says what the cache lacks).
  private func writeAsBlobsArrive(_ plans: [Int: OutputRestore.Plan], root: URL, stampsBefore: [Int: [String: FileStamp]],
                                  logPaths: [Int: String]) -> [Int: LaneRestore] {
    let absent = Set(plans.values.flatMap(\.blobs).filter { !store.contains($0) })
    let logs = Set(plans.values.compactMap { plan in plan.entry.log.flatMap { store.contains($0) ? nil : $0 } })
    var waiting: [Int: Set<BlobDigest>] = [:]
    var lanesWaitingFor: [BlobDigest: [Int]] = [:]
    for (index, plan) in plans {
      let needs = Set(plan.blobs).intersection(absent).union(plan.entry.log.map { logs.contains($0) ? [$0] : [] } ?? [])
      waiting[index] = needs
      for digest in needs { lanesWaitingFor[digest, default: []].append(index) }
    }
    let group = WorkGroup(), done = Locked([Int: LaneRestore]()), blobs = self.store
    var arrived = Set<BlobDigest>(), started = Set<Int>()
    func start(_ index: Int) {
      guard let plan = plans[index], started.insert(index).inserted else { return }
      // What this run downloaded it hashed into the store: copied out unhashed.
      let checked = arrived.intersection(plan.blobs + (plan.entry.log.map { [$0] } ?? []))
      let before = stampsBefore[index], logPath = logPaths[index], keepEntry = entries[index]?.source == .remote
      group.run {
        let lane = Self.write(plan, root: root, store: blobs, checked: checked, stampsBefore: before, logPath: logPath, keepEntry: keepEntry)
        done.withLock { $0[index] = lane }
      }
    }
    for index in plans.keys.sorted() where waiting[index]?.isEmpty != false { start(index) }
    let wanted = Array(absent.union(logs))
    if let remote, !wanted.isEmpty {
      remote.fetch(wanted) { digest in
        arrived.insert(digest)
        for index in lanesWaitingFor[digest] ?? [] {
          waiting[index]?.remove(digest)
          if waiting[index]?.isEmpty == true { start(index) }
        }
      }
    }
    for index in plans.keys.sorted() { start(index) }
    group.wait()
    return done.current
  }

  /// One cached lane's files written into the tree, on a worker: its outputs,
  /// their stamps (so the next run need not hash them), its log, and the
  /// remote's entry kept locally so the next run is served offline. Touches
  /// only the store's and the tree's files, never this object.
  private static func write(_ plan: OutputRestore.Plan, root: URL, store: ContentStore, checked: Set<BlobDigest>,
                            stampsBefore: [String: FileStamp]?, logPath: String?, keepEntry: Bool) -> LaneRestore {
    var lane = LaneRestore(result: OutputRestore.apply(plan, root: root, store: store, checked: checked))
    guard case .restored = lane.result else { return lane }
    if !plan.entry.outputs.isEmpty {
      let now = OutputRestore.stamps(plan.entry, root: root, disk: store.disk)
      if now != stampsBefore { store.keepStamps(now, key: plan.entry.key) }
    }
    if let digest = plan.entry.log, let path = logPath, store.contains(digest) {
      let url = root.appendingPathComponent(path)
      try? store.disk.makeFolders(url.deletingLastPathComponent().path)
      if (try? store.restoreLog(digest, toAbsolute: url.path, checked: checked.contains(digest))) != nil { lane.log = path }
    }
    if keepEntry {
      do {
        try store.writeEntry(plan.entry.encoded(), key: plan.entry.key)
        lane.entryKept = true
      } catch {
        lane.warning = "cache: cannot keep the remote cache's entry locally: \(error)"
      }
    }
    return lane
  }

  /// After a lane was served: an entry from the remote (its blobs fetched and
  /// checked into the store already) was written into the local store by the
  /// worker, so the next run is served offline; one from the local store is
  /// kept for upload.
  private func keep(_ index: Int, _ entry: ActionEntry, keptBy lane: LaneRestore) {
    switch entries[index]?.source {
    case .remote?:
      if let warning = lane.warning { localWarnings.append(warning) }
    case .local?: servedLocally[index] = entry
    case nil: break
    }
  }

  /// What `restore` would meet, writing nothing (`--dry-run`): per lane, nil
  /// when its outputs could come back, else why not. Blobs the local store
  /// lacks count as there when a remote cache may hold them.
  func wouldRestore(_ indices: [Int], lanes: [Lane], root: URL) -> [Int: TerminalLine?] {
    var found: [Int: TerminalLine?] = [:]
    for index in indices {
      let lane = lanes[index]
      guard let (entry, _) = entries[index] else {
        found[index] = lane.outputs.isEmpty ? .some(nil) : "no cache entry records its outputs"
        continue
      }
      guard !lane.outputs.isEmpty else { found[index] = .some(nil); continue }
      switch OutputRestore.plan(entry, declared: lane.outputs, root: root, disk: store.disk) {
      case .failure(let why): found[index] = why.line
      case .success(let plan):
        let lacking = Set(plan.blobs.filter { !store.contains($0) })
        found[index] = lacking.isEmpty || remote != nil ? .some(nil) : "the cache lacks \(lacking.count) of its output file(s)"
      }
    }
    return found
  }

  /// After a passing attempt, on a worker: every declared output must exist.
  /// Returns the missing ones; when none is missing, the outputs were copied
  /// into the store, and `keep` (on the loop's thread) holds them for the
  /// entry the run writes afterwards. Touches only the store's files, which
  /// any thread may add to: nothing of this object changes here.
  func capture(_ index: Int, lane: Lane, root: URL) -> OutputCheck {
    guard !lane.outputs.isEmpty else {
      return OutputCheck(missing: []) { self.captured[index] = OutputFiles() }
    }
    let found = OutputFiles.capture(lane.outputs, root: root, store: store)
    return OutputCheck(missing: found.missing) { self.captured[index] = found }
  }

  /// Writes an entry for each lane that passed and may be served again, and
  /// uploads them when the remote takes uploads. `passes` holds, per lane
  /// index, its key, the conditions it was judged under and its log file.
  func save(_ passes: [Int: (key: String, judged: PassConditions, logPath: String?)], lanes: [Lane], root: URL,
                   duetVersion: String) {
    var written: [ActionEntry] = []
    for index in passes.keys.sorted() {
      guard let pass = passes[index], let outputs = captured[index] else { continue }
      let lane = lanes[index]
      if let problem = outputs.problems.first {
        localWarnings.append("cache: lane \(lane.name) passed, but its outputs are not stored: \(problem)")
        continue
      }
      var log: BlobDigest?
      if let path = pass.logPath {
        log = try? store.insert(fileAt: root.appendingPathComponent(path).path)
      }
      let entry = ActionEntry(key: pass.key, lane: lane.name, duetVersion: duetVersion, strict: pass.judged.strict,
                              partial: pass.judged.partial, outputs: outputs.outputs, log: log)
      let bytes = entry.encoded()
      // An entry no reader takes back (`ActionEntry.decode` bounds both) is not written.
      guard entry.outputs.count <= ActionEntry.maxOutputs, bytes.count <= ActionEntry.maxEncodedSize else {
        localWarnings.append("cache: lane \(lane.name) passed, but its outputs are not stored: "
                             + "\(entry.outputs.count) files and links, an entry of \(bytes.count) bytes, past the "
                             + "\(ActionEntry.maxOutputs) outputs or \(ActionEntry.maxEncodedSize) bytes an entry may hold")
        continue
      }
      do {
        try store.writeEntry(bytes, key: pass.key)
        written.append(entry)
        if !entry.outputs.isEmpty { store.keepStamps(outputs.stamps, key: pass.key) }
      } catch {
        localWarnings.append("cache: cannot write the entry of lane \(lane.name): \(error)")
      }
    }
    remote?.put(written, served: servedLocally.keys.sorted().compactMap { passes[$0] == nil ? servedLocally[$0] : nil })
  }

  /// Warnings of the local store and the remote, each said once: the run's
  /// warnings are the verdict's strings, so a line's text is taken here.
  func takeWarnings() -> [String] {
    defer { localWarnings.removeAll() }
    return localWarnings.map(\.text) + (remote?.takeWarnings() ?? [])
  }
}
