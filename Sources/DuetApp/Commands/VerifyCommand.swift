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

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    let request = try request(options, in: call)
    let console = call.console
    let observer = observer(console: console, json: options.json, signals: call.invocation.signals)
    return try usageOnFailure {
      if options.watch { return try VerifyWatch.run(request, observer: observer, invocation: call.invocation, console: console) }
      let response = try verify(request, observer: observer, signals: signalGuard(call.invocation))
      console.show(response.printout(TextFormat(width: console.width, json: options.json), request: request))
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

  /// The request the options ask for, in the tree they name; the manifest the
  /// lane check loaded goes with it, so verify does not load it again.
  static func request(_ options: Options, in call: CommandCall) throws -> VerifyRequest {
    let environment = call.environment
    var request = VerifyRequest(root: try call.treeRoot(options.root), duetVersion: duetVersion, environment: environment)
    request.manifest = call.manifest
    if let jobs = options.jobs { request.options.jobs = jobs }
    if let timeout = options.timeout { request.options.defaultTimeout = timeout }
    request.options.lanes = options.lanes
    request.options.tags = options.tags
    request.skip(options.skip)
    request.options.noDeps = options.noDeps
    request.options.failFast = options.failFast
    (request.options.strict, request.options.refusesFlaky) = (options.strict, options.refusesFlaky)
    request.options.stream = Set(options.stream)
    request.options.noCache = options.noCache
    request.options.sandbox = options.sandbox
    request.remoteCache = options.remoteCache
    request.shard = options.shard
    request.changes(since: options.since, upstream: options.changed)
    request.failedOnly = options.failed
    request.failedTestsOnly = options.failedTests
    request.upstream = options.upstream
    request.sealsVerdicts = options.seal
    request.dryRun = options.dryRun
    request.reports = VerifyReports(junitPath: options.junitPath, environment: environment)
    request.timingsPath = VerifyCI.timingsPath(options.timings, root: request.root)
    request.commandLine = call.invocation.commandLine
    request.builtinIdentity = duetCodeIdentity(call.invocation, root: request.root, remember: !request.dryRun)
    request.reapOrphans = call.invocation.ownsProcess
    return request
  }
}
