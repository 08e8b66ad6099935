import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet verify`: every lane of the manifest as a parallel DAG, with progress,
/// a summary and an exit code a CI job can trust.
enum VerifyCommand: Command {
  static let spec = CommandSpec(
    name: "verify",
    summary: "run every lane of lanes/manifest.yaml as a parallel DAG and say PASS or FAIL",
    usage: "duet verify [options]",
    options: [
      OptionSpec(name: "--jobs", value: "N", help: "run at most N lanes at once (default: the number of cores)"),
      OptionSpec(name: "--lane", value: "NAME", help: "run only this lane and what it needs (repeatable)", repeatable: true),
      OptionSpec(name: "--no-deps", value: nil, help: "with --lane: do not run the lanes it needs"),
      OptionSpec(name: "--fail-fast", value: nil, help: "start no new lane after one fails"),
      OptionSpec(name: "--dry-run", value: nil, help: "print, per lane in start order, whether it is cached or why it would run; run nothing"),
      OptionSpec(name: "--since", value: "REF", help: "run only the lanes the changes since the merge-base with REF touch (commits, staged, unstaged, untracked)"),
      OptionSpec(name: "--changed", value: nil, help: "like --since, from the merge-base with the upstream branch (else origin/HEAD, else HEAD)"),
      OptionSpec(name: "--timeout", value: "DURATION", help: "the default lane timeout, e.g. 90s, 10m, 1h (default: 30m)"),
      OptionSpec(name: "--strict", value: nil, help: "a lane whose requires: program is missing fails, and so does a run that changes tracked files"),
      OptionSpec(name: "--stream", value: "LANE", help: "print this lane's output live (repeatable)", repeatable: true),
      OptionSpec(name: "--no-cache", value: nil, help: "run every lane, even those whose inputs are unchanged since they last passed"),
      OptionSpec(name: "--failed", value: nil, help: "run again the lanes that failed in the last recorded run (with their needs)"),
      OptionSpec(name: "--shard", value: "I/N", help: "run shard I of N (a CI matrix): lanes split by recorded durations; implies --no-deps"),
      OptionSpec(name: "--junit", value: "FILE", help: "also write the run as JUnit XML to FILE"),
      CommandSpec.jsonOption,
      CommandSpec.rootOption,
    ],
    details: "exit codes: 0 every lane passed, 1 a lane failed or timed out, 2 a usage or manifest error, 130 interrupted\nunder GITHUB_ACTIONS=true: ::error/::warning annotations, log tails in ::group:: blocks, a summary appended to $GITHUB_STEP_SUMMARY"
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    // Every option and combination is checked before any file is read.
    var options = try options(arguments)
    var ci = try VerifyCI.context(arguments, environment: arguments.invocation.environment)
    let shardSpec = try VerifyCI.shardSpec(arguments)
    let json = arguments.flag("--json")

    let root = try treeRoot(arguments)
    let tree = try loadTree(root: root)
    let manifest = tree.manifest
    if tree.isDerived {
      if json { console.err(DerivedLanes.notice) } else { console.out(DerivedLanes.notice) }
    }
    let historyPath = HistoryStore.defaultPath(root: root, environment: arguments.invocation.environment)
    if let base = changeBase(arguments) {
      do {
        options.changed = try ChangedFiles.read(base, root: root)
      } catch {
        throw UsageError(message: error.message, command: "verify")
      }
    }
    if let shardSpec {
      let shard = VerifyCI.shardLanes(shardSpec, manifest: manifest, historyPath: historyPath, console: console, quiet: json)
      guard !shard.isEmpty else {
        let outcome = VerifyOutcome(run: RunResult(records: [], interrupted: false, duration: 0))
        _ = VerifyCI.writeReports(outcome, context: ci, console: console)
        if json { console.out(jsonText(RunJSON.object(outcome, runID: nil, root: root))) }
        return outcome.exitCode
      }
      options.lanes = shard
      options.noDeps = true
    }
    if arguments.flag("--failed") {
      let failed: [String]?
      do {
        failed = try VerifySession.lanesThatFailedLastTime(historyPath: historyPath)
      } catch {
        console.err("duet verify: error: --failed: cannot read the history: \(error)")
        return ExitCode.usage
      }
      let known = failed?.filter { manifest.lane(named: $0) != nil } ?? []
      guard !known.isEmpty else {
        console.out(failed == nil ? "duet verify --failed: no run recorded yet; nothing to run" : "duet verify --failed: no lane failed in the last run; nothing to run")
        return ExitCode.pass
      }
      options.lanes = known
    }
    let plan: VerifyPlan
    do {
      plan = try VerifyPlan(root: root, manifest: manifest, builtins: .standard, options: options, environment: arguments.invocation.environment)
    } catch {
      throw UsageError(message: error.message, command: "verify")
    }
    let session = VerifySession(plan: plan, historyPath: historyPath, duetVersion: duetVersion, builtinIdentity: duetCodeIdentity,
                                commandLine: arguments.invocation.commandLine)
    if let changed = options.changed {
      let unaffected = plan.affected.values.filter { $0 == .unaffected }.count
      let line = "duet verify: \(changed.files.count) changed file(s) since \(changed.description); \(plan.selected.count - unaffected) of \(plan.selected.count) lane(s) affected"
      if json { console.err(line) } else { console.out(line) }
    }

    if arguments.flag("--dry-run") {
      session.prepare(recording: false)
      for warning in session.warnings { console.err("duet verify: warning: \(warning)") }
      if json { console.out(jsonText(dryRunObject(session))) } else { printDryRun(session, console: console) }
      return ExitCode.pass
    }
    do {
      try plan.prepareStateFolder()
    } catch {
      console.err("duet verify: warning: cannot make .duet/ under \(root.path): \(error); lane logs may be lost")
    }

    let interruption = session.interruption
    let ownsProcess = arguments.invocation.ownsProcess
    if ownsProcess { Subreaper.enable() }
    // A signal stops the run, and any child already started (a git query while
    // the run is prepared would otherwise hold Ctrl-C for its whole deadline).
    let result = SignalPolicy.during(ownsProcess: ownsProcess, { _ in
      interruption.interrupt()
      ChildRun.stopAll()
    }) { () -> RunResult in
      session.prepare()
      for warning in session.warnings { console.err("duet verify: warning: \(warning)") }
      let progress = ProgressPrinter(console: console, quiet: json, total: plan.selected.count)
      if options.strict && !interruption.requested { ci.before = TrackedChanges.snapshot(root: root) }
      let result = session.run(
        runner: LaneRunner(builtins: .standard),
        onEvent: { progress.handle($0) },
        onLine: { index, line in progress.streamed(manifest.lanes[index].name, line) })
      progress.finish()
      return result
    }
    // What escaped a lane's group (setsid) and was re-parented to duet ends with the run.
    let leftovers = ownsProcess ? Subreaper.killAdopted() : []
    if !leftovers.isEmpty {
      console.err("duet verify: stopped \(leftovers.count) process(es) that lanes left running outside their process groups")
    }

    // The one verdict: lanes, then the tree under --strict, then the reports.
    var outcome = VerifyOutcome(run: result, changedTrackedFiles: VerifyCI.changedFiles(ci, root: root))
    outcome.reportErrors = VerifyCI.writeReports(outcome, context: ci, console: console)
    for warning in session.record(outcome) { console.err("duet verify: warning: \(warning)") }

    if json {
      console.out(jsonText(RunJSON.object(outcome, runID: session.plan.runID, root: root, fingerprints: session.fingerprints.fingerprints, decisions: session.decisions)))
      if ci.github { for line in GitHubAnnotations.lines(outcome, stopToken: UUID().uuidString) { console.err(line) } }
    } else {
      printReport(outcome, console: console, github: ci.github)
    }
    return outcome.exitCode
  }

  /// The options as `VerifyOptions`, every combination checked; reads no file.
  static func options(_ arguments: ParsedArguments) throws -> VerifyOptions {
    var options = VerifyOptions()
    if let jobs = try arguments.positiveInt("--jobs", command: "verify") { options.jobs = jobs }
    if let timeout = try arguments.duration("--timeout", command: "verify") { options.defaultTimeout = timeout }
    options.lanes = arguments.all("--lane")
    options.noDeps = arguments.flag("--no-deps")
    options.failFast = arguments.flag("--fail-fast")
    options.strict = arguments.flag("--strict")
    options.stream = Set(arguments.all("--stream"))
    options.noCache = arguments.flag("--no-cache")
    let shard = arguments.value("--shard") != nil
    let failed = arguments.flag("--failed")
    if shard && !options.lanes.isEmpty { throw UsageError(message: "--shard and --lane cannot be combined", command: "verify") }
    if shard && failed { throw UsageError(message: "--shard and --failed cannot be combined", command: "verify") }
    if failed && !options.lanes.isEmpty { throw UsageError(message: "--failed and --lane cannot be combined", command: "verify") }
    if options.noDeps && options.lanes.isEmpty && !failed && !shard {
      throw UsageError(message: "--no-deps needs --lane NAME", command: "verify")
    }
    if arguments.value("--since") != nil && arguments.flag("--changed") {
      throw UsageError(message: "--since and --changed cannot be combined: --changed is --since the upstream branch", command: "verify")
    }
    if failed && (arguments.value("--since") != nil || arguments.flag("--changed")) {
      throw UsageError(message: "--failed cannot be combined with --since or --changed", command: "verify")
    }
    if let since = arguments.value("--since"), since.isEmpty || since.hasPrefix("-") {
      throw UsageError(message: "--since needs a git ref such as origin/main, got '\(since)'", command: "verify")
    }
    if arguments.flag("--dry-run") && arguments.value("--junit") != nil {
      throw UsageError(message: "--dry-run and --junit cannot be combined: a dry run has no results to report", command: "verify")
    }
    return options
  }

  /// `--since REF` or `--changed`, or nil.
  static func changeBase(_ arguments: ParsedArguments) -> ChangedFiles.Base? {
    if let ref = arguments.value("--since") { return .since(ref) }
    return arguments.flag("--changed") ? .upstream : nil
  }

  static func printReport(_ outcome: VerifyOutcome, console: Console, github: Bool = false) {
    let result = outcome.run
    let failures = result.failed
    let annotations = github ? GitHubAnnotations.lines(outcome, stopToken: UUID().uuidString) : []
    if !annotations.isEmpty {
      console.out("")
      for line in annotations { console.out(line) }
      console.out("")
    } else if !failures.isEmpty {
      console.out("")
      for record in failures {
        for line in RunReport.failureBlock(record) { console.out(line) }
        console.out("")
      }
    } else {
      console.out("")
    }
    for line in RunReport.summary(result, maxWidth: console.width) { console.out(line) }
    console.out("")
    if let flaky = RunReport.flakyLine(result) { console.out(console.paint(flaky, "33")) }
    let colour = outcome.verdict == .pass ? "32;1" : "31;1"
    console.out(console.paint(outcome.lastLine, colour))
  }
}
