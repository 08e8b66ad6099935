import Foundation
import DuetCommandLine
import DuetSupport

/// `duet verify`: every lane of the manifest as a parallel DAG, with progress,
/// a summary and an exit code a CI job can trust.
enum VerifyCommand: TreeCommand, JSONCommand {
  static let spec = CommandSpec(
    name: "verify",
    summary: "run every lane of lanes/manifest.yaml as a parallel DAG and say PASS or FAIL",
    usage: "duet verify [options]",
    options: [
      jobs.spec, lane.spec, tag.spec, skip.spec, noDeps.spec, failFast.spec, dryRun.spec, since.spec, changed.spec, timeout.spec,
      strict.spec, stream.spec, noCache.spec, sandbox.spec, remoteCache.spec, failed.spec, failedTests.spec, shard.spec, junit.spec, upstream.spec,
      seal.spec, timings.spec,
      watch.spec, json.spec, root.spec,
    ],
    details: "exit codes: 0 every lane passed, 1 a lane failed or timed out, 2 a usage or manifest error, 3 duet could not start a lane (no file descriptor, process or memory) and none failed, 130 interrupted\nunder GITHUB_ACTIONS=true: ::error/::warning annotations, log tails in ::group:: blocks, a summary appended to $GITHUB_STEP_SUMMARY"
  )

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let request = try request(arguments)
    let json = try arguments[Self.json]
    let observer = observer(console: console, json: json, signals: arguments.invocation.signals)
    return try usageOnFailure {
      if try arguments[watch] { return try VerifyWatch.run(request, observer: observer, invocation: arguments.invocation, console: console) }
      let response = try verify(request, observer: observer, signals: signalGuard(arguments.invocation))
      console.show(response.printout(TextFormat(width: console.width, json: json), request: request))
      return response.exitCode
    }
  }

  /// Routes the signals to the run while it goes (the binary; in-process, none).
  static func signalGuard(_ invocation: Invocation) -> SignalGuard {
    return { onSignal, body in invocation.duringSignals(onSignal, body) }
  }

  /// A verify that cannot start for the history `--failed` reads: exit 2 with
  /// no pointer to help (an option the tree cannot satisfy is a `UsageError`, which has one).
  static func usageOnFailure(_ body: () throws -> Int32) throws -> Int32 {
    do {
      return try body()
    } catch let failure as VerifyFailure {
      throw CommandFailure(message: "duet verify: error: \(failure)", code: ExitCode.usage)
    }
  }

  /// The observer that prints a run's progress (each run of `--watch` makes its own printer).
  /// `signals`: the process's, whose SIGWINCH redraws the status line at once.
  static func observer(console: Console, json: Bool, signals: SignalPolicy? = nil) -> VerifyObserver {
    let progress = ProgressPrinter(console: console, quiet: json, signals: signals)
    return VerifyObserver(
      notice: { json ? console.err("\($0)") : console.out("\($0)") },
      // A diagnostic (`lanes/quarantine.yaml:3:12: error: …`) keeps its
      // position at the start of the line, where editors and CI find it.
      warning: { console.err(DiagnosticLine.startsWithPosition($0) ? "\($0)" : "duet verify: warning: \($0)") },
      error: { console.err("duet verify: error: \($0)") },
      started: { total in progress.start(total: total) },
      event: { event in progress.handle { ProgressUpdate(event, total: $0) } },
      ended: { progress.finish() },
      line: { lane, line in progress.streamed(lane, line) })
  }

  /// The request the command line asks for; every option checked before any file is read.
  static func request(_ arguments: ParsedArguments<Self>) throws -> VerifyRequest {
    let jobs = try arguments[Self.jobs]
    let timeout = try arguments[Self.timeout]
    try checkCombinations(arguments)
    let junitPath = try VerifyCI.junitPath(arguments)
    let shard = try VerifyCI.shard(arguments)
    let environment = arguments.invocation.environment
    var request = VerifyRequest(root: try treeRoot(arguments), duetVersion: duetVersion, environment: environment)
    if let jobs { request.options.jobs = jobs }
    if let timeout { request.options.defaultTimeout = timeout }
    request.options.lanes = try arguments[lane]
    request.options.tags = try arguments[tag]
    request.skip(try arguments[skip])
    request.options.noDeps = try arguments[noDeps]
    request.options.failFast = try arguments[failFast]
    (request.options.strict, request.options.refusesFlaky) = try strictness(arguments[strict])
    request.options.stream = Set(try arguments[stream])
    request.options.noCache = try arguments[noCache]
    request.options.sandbox = try arguments[sandbox]
    request.remoteCache = try arguments[remoteCache]
    request.shard = shard
    request.changes(since: try arguments[since], upstream: try arguments[changed])
    request.failedOnly = try arguments[failed]
    request.failedTestsOnly = try arguments[failedTests]
    request.upstream = try VerifyCI.upstream(arguments)
    request.sealsVerdicts = try arguments[seal]
    request.dryRun = try arguments[dryRun]
    request.reports = VerifyReports(junitPath: junitPath, environment: environment)
    request.timingsPath = try VerifyCI.timingsPath(arguments, root: request.root)
    request.commandLine = arguments.invocation.commandLine
    request.builtinIdentity = duetCodeIdentity(arguments.invocation, root: request.root, remember: !request.dryRun)
    request.reapOrphans = arguments.invocation.ownsProcess
    return request
  }

  /// `--strict` as before; `--strict=flaky` refuses a cached pass that came only
  /// on a retry (issue 55, item 4), and nothing else.
  static func strictness(_ given: InlineFlag?) throws(UsageError) -> (strict: Bool, refusesFlaky: Bool) {
    switch given {
    case nil: return (false, false)
    case .bare?: return (true, false)
    case .value("flaky")?: return (false, true)
    case .value(let other)?:
      throw UsageError(message: "--strict takes no value, or =flaky (run again a lane whose cached pass came only on a retry), got '\(other)'", command: "verify")
    }
  }

  /// The options that cannot go together; reads no file.
  static func checkCombinations(_ arguments: ParsedArguments<Self>) throws {
    let noDeps = try arguments[Self.noDeps]
    let shard = try arguments[Self.shard.given]
    let failed = try arguments[Self.failed]
    let since = try arguments[Self.since]
    let changed = try arguments[Self.changed]
    let chooses = try arguments[lane].isEmpty ? (arguments[tag].isEmpty ? nil : tag.spec.name) : lane.spec.name
    if shard, let chooses { throw UsageError(message: "--shard and \(chooses) cannot be combined", command: "verify") }
    if shard && failed { throw UsageError(message: "--shard and --failed cannot be combined", command: "verify") }
    if failed, let chooses { throw UsageError(message: "--failed and \(chooses) cannot be combined", command: "verify") }
    if try arguments[failedTests] {
      let others = [Self.failed, Self.shard.given, Self.since.given, Self.changed, Self.lane.given, Self.tag.given]
      if let other = try others.first(where: { try arguments[$0] }) {
        throw UsageError(message: "--failed-tests and \(other.spec.name) cannot be combined: --failed-tests chooses the lanes whose last run failed test cases", command: "verify")
      }
    }
    if noDeps && chooses == nil && !failed && !shard {
      throw UsageError(message: "--no-deps needs --lane NAME or --tag TAG", command: "verify")
    }
    if since != nil && changed {
      throw UsageError(message: "--since and --changed cannot be combined: --changed is --since the upstream branch", command: "verify")
    }
    if failed && (since != nil || changed) {
      throw UsageError(message: "--failed cannot be combined with --since or --changed", command: "verify")
    }
    if let since, since.isEmpty || since.hasPrefix("-") {
      throw UsageError(message: "--since needs a git ref such as origin/main, got '\(since)'", command: "verify")
    }
    if try arguments[watch] {
      let alone = [Self.json, Self.dryRun, Self.junit.given, Self.shard.given, Self.failed, Self.since.given, Self.changed]
      if let option = try alone.first(where: { try arguments[$0] }) {
        throw UsageError(message: "--watch and \(option.spec.name) cannot be combined: --watch runs again the lanes each change affects", command: "verify")
      }
    }
    if try arguments[dryRun] && arguments[junit.given] {
      throw UsageError(message: "--dry-run and --junit cannot be combined: a dry run has no results to report", command: "verify")
    }
  }
}
