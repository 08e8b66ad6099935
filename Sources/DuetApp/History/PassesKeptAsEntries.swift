import DuetCache
import DuetHistory
import DuetModel
import DuetRun
import DuetSupport
import Foundation

/// After `duet history merge`: each lane's newest verdict in the merged store,
/// when it is a pass of a lane without `outputs:`, written into the tree's
/// content store as the action entry that pass would have left (issue 51: the
/// entry is the one record `verify` serves a pass from; the history is a log).
/// So stores merged from CI jobs (`--sealed`: only the verdicts duet recorded)
/// serve the next run as they did when the history itself was the gate. A
/// lane with outputs needs its files, which a history does not hold: its pass
/// travels through a remote cache or the jobs' own `.duet/cache`.
enum PassesKeptAsEntries {
  /// The number of entries written; none where the tree has no manifest. A
  /// `.duet` that is not a real folder of the tree (a link out of it) is
  /// refused, as every other writer of duet's state refuses it.
  static func keep(from store: HistoryStore, root: URL, duetVersion: String) throws(FileError) -> Int {
    guard let manifest = try? TreeManifest.load(root: root).manifest else { return 0 }
    try PathGuard.checkStateFolder(root: root)
    let lanes = manifest.lanes.filter { $0.outputs.isEmpty }
    guard let passes = try? store.servablePasses(lanes: lanes.map(\.name)) else { return 0 }
    let content = ContentStore(folder: ContentStore.defaultFolder(root: root))
    var kept = 0
    for lane in lanes {
      guard let pass = passes[lane.name] else { continue }
      let key = LaneCache.actionKey(fingerprint: pass.fingerprint, outputs: [])
      if content.entryBytes(key) != nil { continue }
      let entry = ActionEntry(key: key, lane: lane.name, duetVersion: duetVersion, strict: pass.judged.strict,
                              partial: pass.judged.partial, outputs: [], log: nil)
      if (try? content.writeEntry(entry.encoded(), key: key)) != nil { kept += 1 }
    }
    return kept
  }
}
