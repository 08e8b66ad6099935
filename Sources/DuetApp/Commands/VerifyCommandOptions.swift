import Foundation
import DuetCommandLine
import DuetSupport

extension VerifyCommand {
  /// `duet verify`'s command line, read and checked in the parse step: each
  /// value typed (`--shard` a `ShardSpec`, `--strict=flaky` a flag of its own,
  /// `--junit` an absolute path; the keys checked each value as the line was
  /// parsed), the options that cannot go together refused.
  /// `request(_:in:)` makes a `VerifyRequest` of it once the tree is found.
  struct Options {
    var root: String?
    var json = false
    var jobs: Int?
    var timeout: Double?
    var lanes: [String] = []
    var tags: [String] = []
    var skip: [String] = []
    var noDeps = false
    var failFast = false
    var dryRun = false
    /// `--strict`, and `--strict=flaky` (a cached pass that came only on a retry runs again).
    var strict = false
    var refusesFlaky = false
    var stream: [String] = []
    var noCache = false
    var sandbox = false
    var remoteCache: String?
    var shard: ShardSpec?
    /// `--since REF`, a ref that is neither empty nor an option.
    var since: String?
    var changed = false
    var failed = false
    var failedTests = false
    var upstream: [UpstreamStore] = []
    var seal = false
    /// `--junit FILE` as an absolute path.
    var junitPath: String?
    /// `--timings` (`.bare`: the tree's `.duet/timings.html`) or `--timings=FILE` (`.value`, an absolute path).
    var timings: InlineFlag?
    var watch = false
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    var options = Options(root: try line[root], json: try line[json], jobs: try line[jobs], timeout: try line[timeout])
    options.lanes = try line[lane]
    options.tags = try line[tag]
    options.skip = try line[skip]
    options.noDeps = try line[noDeps]
    options.failFast = try line[failFast]
    options.dryRun = try line[dryRun]
    (options.strict, options.refusesFlaky) = strictness(try line[strict])
    options.stream = try line[stream]
    options.noCache = try line[noCache]
    options.sandbox = try line[sandbox]
    options.remoteCache = try line[remoteCache]
    options.shard = try line[shard]
    options.since = try line[since]
    options.changed = try line[changed]
    options.failed = try line[failed]
    options.failedTests = try line[failedTests]
    options.upstream = try VerifyCI.upstream(line)
    options.seal = try line[seal]
    options.junitPath = try VerifyCI.junitPath(line)
    options.timings = try VerifyCI.timings(line)
    options.watch = try line[watch]
    try checkCombinations(options)
    return options
  }

  /// `--strict` as before; `--strict=flaky` refuses a cached pass that came only
  /// on a retry (issue 55, item 4), and nothing else (the parse takes no other value).
  static func strictness(_ given: InlineFlag?) -> (strict: Bool, refusesFlaky: Bool) {
    switch given {
    case nil: return (false, false)
    case .bare?: return (true, false)
    case .value?: return (false, true)
    }
  }

  /// The options that cannot go together; reads no file.
  static func checkCombinations(_ options: Options) throws(UsageError) {
    let shard = options.shard != nil
    let failed = options.failed
    let chooses = options.lanes.isEmpty ? (options.tags.isEmpty ? nil : tag.spec.name) : lane.spec.name
    if shard, let chooses { throw UsageError(message: "--shard and \(chooses) cannot be combined", command: "verify") }
    if shard && failed { throw UsageError(message: "--shard and --failed cannot be combined", command: "verify") }
    if failed, let chooses { throw UsageError(message: "--failed and \(chooses) cannot be combined", command: "verify") }
    if options.failedTests {
      let others = [(failed, Self.failed), (shard, Self.shard.given), (options.since != nil, since.given), (options.changed, changed),
                    (!options.lanes.isEmpty, lane.given), (!options.tags.isEmpty, tag.given)]
      if let other = others.first(where: \.0)?.1 {
        throw UsageError(message: "--failed-tests and \(other.spec.name) cannot be combined: --failed-tests chooses the lanes whose last run failed test cases", command: "verify")
      }
    }
    if options.noDeps && chooses == nil && !failed && !shard {
      throw UsageError(message: "--no-deps needs --lane NAME or --tag TAG", command: "verify")
    }
    if options.since != nil && options.changed {
      throw UsageError(message: "--since and --changed cannot be combined: --changed is --since the upstream branch", command: "verify")
    }
    if failed && (options.since != nil || options.changed) {
      throw UsageError(message: "--failed cannot be combined with --since or --changed", command: "verify")
    }
    if options.watch {
      let alone = [(options.json, json.spec), (options.dryRun, dryRun.spec), (options.junitPath != nil, junit.spec), (shard, Self.shard.spec),
                   (failed, Self.failed.spec), (options.since != nil, since.spec), (options.changed, changed.spec)]
      if let option = alone.first(where: \.0)?.1 {
        throw UsageError(message: "--watch and \(option.name) cannot be combined: --watch runs again the lanes each change affects", command: "verify")
      }
    }
    if options.dryRun && options.junitPath != nil {
      throw UsageError(message: "--dry-run and --junit cannot be combined: a dry run has no results to report", command: "verify")
    }
  }
}
