import DuetCache
import DuetModel
import DuetHistory

/// A verify's cache decisions as a value, round by round: which lanes are
/// served, which run and why, from the keys, the history and the entries
/// looked up. Pure: restoring a served lane's outputs is the caller's edge
/// step, whose results `absorb` takes. A lane whose outputs cannot come back
/// runs, and with it every lane that needs it; a restore that wrote files asks
/// for the tree to be keyed again (they may be another lane's inputs, read
/// before they were there), a few rounds at most.
struct CacheRounds {
  /// What restoring one served lane gave: its files written (or why it
  /// could not be done), and the log brought back.
  typealias Restore = (result: OutputRestore.Result, log: String?)

  /// What the caller does after a round's restores.
  enum Next: Equatable {
    /// Nothing more: the decisions stand.
    case done
    /// A lane's outputs could not come back: decide again with it running.
    case decideAgain
    /// Restored files may be inputs: key the tree again, look up, decide again.
    case keyAgain
  }

  /// How many times restored files make the tree keyed again.
  static let keyingRounds = 3

  let conditions: CacheCheck.RunConditions
  let noCache: Bool
  /// For each lane not settled before the run: `cached`, or why it runs.
  private(set) var decisions: [Int: CacheCheck.Decision] = [:]
  /// The lanes that run whatever the cache holds, and why: their outputs could not come back.
  private(set) var forced: [Int: String] = [:]
  /// What each served lane's restore wrote: files, and the log path.
  private(set) var restored: [Int: (files: Int, log: String?)] = [:]
  private(set) var keyings = 0

  init(options: VerifyOptions) {
    conditions = CacheCheck.RunConditions(strict: options.strict, partial: options.changed != nil, refusesFlaky: options.refusesFlaky)
    noCache = options.noCache
  }

  /// One round's decisions, from the entries found so far.
  mutating func decide(_ plan: VerifyPlan, fingerprints: InputFingerprint.Result, history: [String: LastVerdict],
                       entries: VerifyPipeline.Entries) {
    decisions = CacheCheck.decide(manifest: plan.manifest, selected: plan.selected, settled: plan.preset.mapValues(\.outcome),
                                  fingerprints: fingerprints, history: history,
                                  entries: entries.mapValues { PassConditions(strict: $0.entry.strict, partial: $0.entry.partial) },
                                  forced: forced, noCache: noCache, run: conditions)
  }

  /// The lanes decided `cached` whose outputs have not come back yet, in lane order.
  var pending: [Int] { decisions.filter { $0.value == .cached && restored[$0.key] == nil }.keys.sorted() }

  /// Takes a round's restores: a lane restored is served; one that could not be runs.
  mutating func absorb(_ restores: [Int: Restore]) -> Next {
    var refused = false
    var wrote = false
    for (index, restore) in restores {
      switch restore.result {
      case .restored(let files):
        restored[index] = (files, restore.log)
        wrote = wrote || files > 0
      case .cannot(let why):
        forced[index] = "its outputs cannot be restored: \(why)"
        refused = true
      }
    }
    if wrote && keyings < Self.keyingRounds {
      keyings += 1
      return .keyAgain
    }
    return refused ? .decideAgain : .done
  }

  /// The record of each lane served: `cached`, why, and what its restore brought back.
  func served(_ lanes: [Lane], fingerprints: InputFingerprint.Result, history: [String: LastVerdict],
              entries: VerifyPipeline.Entries) -> [Int: LaneVerdict] {
    var records: [Int: LaneVerdict] = [:]
    for (index, decision) in decisions where decision == .cached {
      let lane = lanes[index]
      let reason = Self.servedReason(history[lane.name], fingerprint: fingerprints.fingerprints[index], source: entries[index]?.source)
      var record = LaneVerdict(index: index, name: lane.name, outcome: .cached, reason: reason)
      record.restoredFiles = restored[index]?.files ?? 0
      record.restoredLog = restored[index]?.log
      records[index] = record
    }
    return records
  }

  /// Why a cached lane is served: its own history, or an entry in a cache.
  static func servedReason(_ last: LastVerdict?, fingerprint: String?, source: LaneCache.Source?) -> String {
    if let last, last.passed, last.fingerprint == fingerprint {
      // A pass that came only on a retry is said so (issue 55, item 4): served silently, it hid its failure.
      return last.retried?.words ?? "inputs unchanged since it last passed"
    }
    switch source {
    case .remote?: return "a pass with these inputs is in the remote cache"
    default: return "a pass with these inputs is in the cache"
    }
  }
}
