import DuetCommandLine
import DuetSupport
import DuetCache

/// The options of `duet verify`, each declared once as the key `line[key]`
/// reads, with what the parse checks of its value; the spec lists them in this order.
extension VerifyCommand {
  static let jobs = Option<Self, Int?>.positiveInt(
    OptionSpec(name: "--jobs", value: "N", help: "run at most N lanes at once (default: the number of cores)", short: "-j"))
  static let lane = Option<Self, [String]>.repeated(
    OptionSpec(name: "--lane", value: "NAME", help: "run only this lane, or the lanes a glob such as kotlin-* matches, and what they need (repeatable)", repeatable: true, takesGlob: true))
  static let tag = Option<Self, [String]>.repeated(
    OptionSpec(name: "--tag", value: "TAG", help: "run only the lanes carrying this tag (tags:), and what they need (repeatable)", repeatable: true, completes: .tags))
  static let skip = Option<Self, [String]>.repeated(
    OptionSpec(name: "--skip", value: "LANE", help: "leave out this lane, or the lanes a glob matches, as skipped by request (repeatable; also DUET_SKIP=a,b)", repeatable: true, takesGlob: true))
  static let noDeps = Option<Self, Bool>.flag(
    OptionSpec(name: "--no-deps", value: nil, help: "with --lane: do not run the lanes it needs"))
  static let failFast = Option<Self, Bool>.flag(
    OptionSpec(name: "--fail-fast", value: nil, help: "start no new lane after one fails"))
  static let dryRun = Option<Self, Bool>.flag(
    OptionSpec(name: "--dry-run", value: nil, help: "print, per lane in start order, whether it is cached or why it would run; run nothing"))
  static let since = Option<Self, String?>.text(
    OptionSpec(name: "--since", value: "REF", help: "run only the lanes the changes since the merge-base with REF touch (commits, staged, unstaged, untracked)", completes: .refs))
    .checkingEach { since, command throws(UsageError) in
      // A ref, not nothing and not an option taken for one.
      guard since.isEmpty || since.hasPrefix("-") else { return }
      throw UsageError(message: "--since needs a git ref such as origin/main, got '\(since)'", command: command)
    }
  static let changed = Option<Self, Bool>.flag(
    OptionSpec(name: "--changed", value: nil, help: "like --since, from the merge-base with the upstream branch (else origin/HEAD, else HEAD)"))
  static let timeout = Option<Self, Double?>.duration(
    OptionSpec(name: "--timeout", value: "DURATION", help: "the default lane timeout, e.g. 90s, 10m, 1h (default: 30m)"))
  static let strict = Option<Self, InlineFlag?>.inlineFlag(
    OptionSpec(name: "--strict", value: nil, help: "a lane whose requires: program is missing fails, and so does a run that changes tracked files; --strict=flaky instead runs again a lane whose cached pass came only on a retry", inlineValue: true))
    .checkingEach { value, command throws(UsageError) in
      guard value != "flaky" else { return }
      throw UsageError(message: "--strict takes no value, or =flaky (run again a lane whose cached pass came only on a retry), got '\(value)'", command: command)
    }
  static let stream = Option<Self, [String]>.repeated(
    OptionSpec(name: "--stream", value: "LANE", help: "print this lane's output live (repeatable)", repeatable: true))
  static let noCache = Option<Self, Bool>.flag(
    OptionSpec(name: "--no-cache", value: nil, help: "run every lane, even those whose inputs are unchanged since they last passed"))
  static let sandbox = Option<Self, Bool>.flag(
    OptionSpec(name: "--sandbox", value: nil, help: "run each shell lane under bubblewrap, where only what it declares exists; name what it reads or writes outside"))
  static let remoteCache = Option<Self, String?>.text(
    OptionSpec(name: "--remote-cache", value: "URL", help: "also read passes and outputs from this Bazel HTTP cache (nginx WebDAV, bazel-remote); also DUET_REMOTE_CACHE, uploads with DUET_REMOTE_CACHE_UPLOAD=1"))
    .checkingEach { url, command throws(UsageError) in
      // The URL alone (`laneCache` checks it again with the variables that go with it).
      do { _ = try RemoteCacheConfig.resolve(flag: url, environment: [:]) } catch { throw UsageError(message: "\(error)", command: command) }
    }
  static let failed = Option<Self, Bool>.flag(
    OptionSpec(name: "--failed", value: nil, help: "run again the lanes that failed in the last recorded run (with their needs)"))
  static let failedTests = Option<Self, Bool>.flag(
    OptionSpec(name: "--failed-tests", value: nil, help: "run again, in each lane whose last run failed test cases, only those cases: their names (classname.name, one a line) are in the file DUET_FAILED_TESTS names, for the lane's command to hand its runner; such a pass is never cached"))
  static let shard = Option<Self, ShardSpec?>.converted(
    OptionSpec(name: "--shard", value: "I/N", help: "run shard I of N (a CI matrix): lanes split by recorded durations; implies --no-deps")) { text, command throws(UsageError) in
      guard let spec = ShardSpec.parse(text) else {
        throw UsageError(message: "--shard needs I/N with 1 <= I <= N, such as 2/3, got '\(text)'", command: command)
      }
      return spec
    }
  static let junit = Option<Self, String?>.file(
    OptionSpec(name: "--junit", value: "FILE", help: "also write the run as JUnit XML to FILE"))
  static let upstream = Option<Self, [String]>.repeated(
    OptionSpec(name: "--upstream", value: "JOB=STORE", help: "generated CI: the history store of an earlier job; a lane whose need did not pass there is skipped (repeatable)", repeatable: true))
    .checkingEach { text, command throws(UsageError) in
      guard VerifyCI.upstreamParts(text) == nil else { return }
      throw UsageError(message: "--upstream needs JOB=STORE, such as linux-1=.duet/upstream/history-linux-1.sqlite, got '\(text)'", command: command)
    }
  static let seal = Option<Self, Bool>.flag(
    OptionSpec(name: "--seal", value: nil, help: "generated CI: after the run, seal the verdicts duet recorded beside the history store (STORE.seal), which --upstream checks"))
  static let timings = Option<Self, InlineFlag?>.inlineFlag(
    OptionSpec(name: "--timings", value: nil, help: "also write the run as an HTML page (lanes on job slots, critical path) to .duet/timings.html, or --timings=FILE", inlineValue: true))
    .checkingEach { path, command throws(UsageError) in
      guard path.isEmpty else { return }
      throw UsageError(message: "--timings=FILE needs a file path", command: command)
    }
  static let watch = Option<Self, Bool>.flag(
    OptionSpec(name: "--watch", value: nil, help: "after the run, wait for files to change and run again the lanes they affect (Ctrl-C ends it)"))
}
