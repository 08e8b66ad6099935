import DuetModel
import DuetProcess
import DuetRun
import DuetSupport
import Foundation

/// Everything `duet verify` was asked, checked already: the executable turns
/// arguments into this, and `verify(_:observer:)` turns it into a response.
struct VerifyRequest: Sendable {
  /// The tree, found once (`--root` or the nearest manifest above the working folder).
  var root: URL
  /// The tree's manifest, when the command line's lane check loaded it already
  /// (`KnownLanes`); nil: `verify` loads it. The watch drops it: each of its
  /// runs reads the tree as it is then.
  var manifest: TreeManifest?
  var options: VerifyOptions
  /// `--since REF` / `--changed`: the change whose lanes run.
  var changeBase: ChangedFiles.Base?
  /// `--shard I/N`: this machine's part of the lanes.
  var shard: ShardSpec?
  /// `--failed`: the lanes that failed in the last recorded run.
  var failedOnly = false
  /// `--failed-tests`: the lanes whose last run failed test cases, each running only those.
  var failedTestsOnly = false
  /// `--upstream JOB=STORE` (generated CI): the stores of earlier jobs, whose
  /// verdicts gate the lanes needing theirs (`UpstreamVerdicts`).
  var upstream: [UpstreamStore] = []
  /// `--seal` (generated CI): after the run, seal the verdicts duet recorded in
  /// the job beside its history store, for the jobs after it (`VerdictSeal`).
  var sealsVerdicts = false
  /// `--dry-run`: decide, run nothing, record nothing.
  var dryRun = false
  var reports = VerifyReports()
  /// `--remote-cache URL`: the Bazel HTTP cache to read (and, with
  /// `DUET_REMOTE_CACHE_UPLOAD=1`, write); wins over `DUET_REMOTE_CACHE`.
  var remoteCache: String?
  /// `--timings[=PATH]`: where the timings page goes (an absolute path), or nil for none.
  var timingsPath: String?
  /// What started the run, as the history's `runs.command` column keeps it.
  var commandLine = "duet verify"
  /// duet's version and the identity of its built-in code, for built-in lanes'
  /// fingerprints; the identity is asked for only when a lane is a built-in.
  var duetVersion: String
  var builtinIdentity: (@Sendable () -> String)?
  /// Make this process the subreaper of the lanes' escaped children and stop
  /// them after the run (the binary does; an in-process caller sharing its
  /// process with other work may not want it).
  var reapOrphans = false
  /// The environment lanes inherit and duet reads (`DUET_HISTORY`, `PATH`,
  /// `DUET_SKIP`): the invocation's, never read from this process here.
  var environment: [String: String]
  /// What the run loop waits on and reads the time from, made on the thread
  /// that runs it; nil: the machine's. Tests hand a scripted poller and clock.
  var runLoop: (@Sendable () -> (poller: any ChildPoller, clock: any RunClock))?

  /// `--timings` without a path: `.duet/timings.html` under the root.
  static func defaultTimingsPath(root: URL) -> String { root.appendingPathComponent(TimingsFile.defaultPath).path }

  init(root: URL, options: VerifyOptions, duetVersion: String, environment: [String: String]) {
    self.root = root
    self.options = options
    self.duetVersion = duetVersion
    self.environment = environment
  }

  /// The default options, with the lanes `DUET_SKIP` names in `environment` left out.
  init(root: URL, duetVersion: String, environment: [String: String]) {
    var options = VerifyOptions()
    options.skip = VerifyRequest.skipVariable(environment)
    self.init(root: root, options: options, duetVersion: duetVersion, environment: environment)
  }

  /// `--skip LANE`: left out as skipped by request, before those `DUET_SKIP` names.
  mutating func skip(_ patterns: [String]) {
    options.skip = patterns.map { LaneSkip($0, origin: "--skip") } + VerifyRequest.skipVariable(environment)
  }

  /// `--since REF` or (`upstream`) `--changed`; neither runs every lane.
  mutating func changes(since ref: String?, upstream: Bool) {
    changeBase = ref.map { .since($0) } ?? (upstream ? .upstream : nil)
  }

  /// `DUET_SKIP=a,b,kotlin-*`: lanes to leave out, for hooks (as pre-commit's `SKIP=`);
  /// blanks around the commas and empty entries are ignored.
  static func skipVariable(_ environment: [String: String]) -> [LaneSkip] {
    (environment[.skip] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.map { LaneSkip($0, origin: EnvironmentVariable.skip.rawValue) }
  }
}

/// The reports a CI run writes besides the text: `--junit FILE` and, under
/// GitHub Actions, annotations and the step summary.
struct VerifyReports: Sendable {
  var junitPath: String?
  var github = false
  var summaryPath: String?
  init() {}

  /// GitHub's side from the environment (`GITHUB_ACTIONS`, `GITHUB_STEP_SUMMARY`).
  init(junitPath: String?, environment: [String: String]) {
    self.junitPath = junitPath
    github = environment[.githubActions] == "true"
    if github, let summary = environment[.githubStepSummary], !summary.isEmpty { summaryPath = summary }
  }
}

/// `--shard I/N` as the request holds it: parsed once, where the argument is read.
typealias ShardSpec = Sharding.Spec
