import Foundation
import DuetCache
import DuetModel
import DuetSupport
import DuetHistory
import DuetTestReports

/// One `duet verify` as steps that take values and return values, with the
/// side effects at the edges, as ninja's `Builder` keeps its plan pure:
///
/// 1. read (`read`, `fingerprint`: edges that read): the quarantine, each
///    lane's last duration and verdict, each lane's fingerprint of the tree;
/// 2. plan (`weights`, `actionKeys`, pure): the start order's weights, each lane's key;
/// 3. cache decisions (`CacheRounds`, pure given the entries looked up): which
///    lanes are served, which run and why; restoring a served lane's outputs
///    into the tree (`restore`) is the edge between two rounds;
/// 4. run (`run`): the lanes on a `LaneLoop`, with the keys taken again as lanes start;
/// 5. verdict (`verdict`, pure): the one `RunVerdict` every printout and the exit code read;
/// 6. record (`record`, the last edge): the history row, the cache entries, the log folders.
///
/// This holds only what the edges touch (the history path, the cache, how to
/// name this duet), never a step's result: each step's result is the next one's argument.
package struct VerifyPipeline {
  /// Nil when history is off (`DUET_HISTORY=off`): no weights and no record of
  /// the run; the cache is kept all the same.
  package let historyPath: String?
  let duetVersion: String
  /// What identifies this duet's own code in a built-in lane's fingerprint: a
  /// built-in checks with duet's code, so a rebuilt duet must not reuse its
  /// passes. Asked only when the manifest has a built-in lane: it hashes duet's
  /// executable (tens of megabytes) when its memo is missing, as in every fresh CI checkout.
  let identifyDuet: (@Sendable () -> String)?
  let commandLine: String
  /// The content-addressed cache, on whatever `DUET_HISTORY` says; nil only
  /// when the caller made none (`--no-cache`, a test).
  let cache: LaneCache?
  /// How a recorded run is put on a remote cache that takes uploads (the
  /// store, the remote, the content store, the run's id; warnings back): the
  /// app's `SharedHistory`; nil puts none.
  let shareRun: ((HistoryStore, RemoteCache, ContentStore, String) -> [String])?
  /// Ctrl-C, from any thread (a signal handler), before or during the run: a
  /// request made before the run loop exists is heard by the loop the moment it starts listening.
  package let interruption = StopRequest()
  let runUUID = UUID().uuidString.lowercased()
  let started = Date()

  package init(historyPath: String?, duetVersion: String, identifyDuet: (@Sendable () -> String)? = nil, commandLine: String,
               cache: LaneCache? = nil, shareRun: ((HistoryStore, RemoteCache, ContentStore, String) -> [String])? = nil) {
    self.historyPath = historyPath
    self.duetVersion = duetVersion
    self.identifyDuet = identifyDuet
    self.commandLine = commandLine
    self.cache = cache
    self.shareRun = shareRun
    // Ctrl-C during a lookup or a restore ends the request at once.
    if let remote = cache?.remote { interruption.listen { remote.cancel() } }
  }

  /// The cache's entries as looked up, by lane: what the decisions are made from.
  typealias Entries = [Int: (entry: ActionEntry, source: LaneCache.Source)]

  /// Each lane's fingerprint and the action key its pass is stored under.
  struct Keys {
    var fingerprints: InputFingerprint.Result
    var actionKeys: [Int: String] = [:]
  }

  /// What the read step found before anything is decided.
  struct Readings {
    var durations: [String: Double] = [:]
    /// Each lane's newest recorded verdict (none under `--no-cache`).
    var history: [String: LastVerdict] = [:]
    /// `lanes/quarantine.yaml` as this run applies it; nil when absent or unreadable.
    var quarantine: QuarantineRule?
    var warnings: [String] = []
  }

  /// A verify decided: what the run starts from and `--dry-run` prints.
  package struct Decided {
    /// The plan with its weights, and the lanes the cache serves settled as `cached`.
    package var plan: VerifyPlan
    var keys: Keys
    /// For each lane not settled before the run: `cached`, or why it runs.
    package var decisions: [Int: CacheCheck.Decision]
    /// Under `--dry-run`, for each lane that runs: the pass another checkout or
    /// machine recorded for this commit that it misses, and why (`CacheMiss`).
    package var misses: [Int: CacheMiss] = [:]
    /// Every warning so far; the response's also holds the run's and the record's.
    package var warnings: [String]
    var readings: Readings
    var entries: Entries
    /// The HEAD commit the history row names when the fingerprints asked git already.
    var gitCommit: String?
    /// Whether the run asks git for the commit, as a child beside the lanes:
    /// only the record needs it, so the first lane need not wait for it.
    var commitWanted = false

    package var fingerprints: InputFingerprint.Result { keys.fingerprints }

    /// The decided verify as the response keeps it once the lanes ran and the
    /// run was recorded: the keys as the run left them (a lane whose need ran
    /// was keyed again as it started), and every warning. Pure.
    package func after(_ ran: Ran, recorded: Recorded) -> Decided {
      var after = self
      after.keys = ran.keys
      after.warnings += ran.warnings + recorded.warnings
      return after
    }
  }

  /// What the run step did: the loop's verdict on the lanes, and what the record reads of it.
  package struct Ran {
    package var verdict: RunVerdict
    /// The keys, with those of lanes whose need ran taken again as they started.
    var keys: Keys
    /// The inputs that moved while a lane passed, so that pass is not kept.
    var moved: [Int: [String]] = [:]
    var gitCommit: String?
    /// Files the lanes read that could not be written (`--failed-tests`, the quarantine).
    package var warnings: [String] = []
  }

  /// What the record step did: its warnings, and the rows it wrote (nil when
  /// none were: what a CI job's verdict seal holds).
  package struct Recorded {
    package var warnings: [String] = []
    package var rows: (run: RunRow, steps: [StepRow])?
  }
}
