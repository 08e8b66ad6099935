import Foundation
import DuetApp
import DuetSupport

/// `duet verify`: every lane of the manifest as a parallel DAG, with progress,
/// a summary and an exit code a CI job can trust.
enum VerifyCommand: Command {
  static let spec = CommandSpec(
    name: "verify",
    summary: "run every lane of lanes/manifest.yaml as a parallel DAG and say PASS or FAIL",
    usage: "duet verify [options]",
    options: [
      OptionSpec(name: "--jobs", value: "N", help: "run at most N lanes at once (default: the number of cores)", short: "-j"),
      OptionSpec(name: "--lane", value: "NAME", help: "run only this lane, or the lanes a glob such as kotlin-* matches, and what they need (repeatable)", repeatable: true),
      OptionSpec(name: "--tag", value: "TAG", help: "run only the lanes carrying this tag (tags:), and what they need (repeatable)", repeatable: true, completes: .tags),
      OptionSpec(name: "--skip", value: "LANE", help: "leave out this lane, or the lanes a glob matches, as skipped by request (repeatable; also DUET_SKIP=a,b)", repeatable: true),
      OptionSpec(name: "--no-deps", value: nil, help: "with --lane: do not run the lanes it needs"),
      OptionSpec(name: "--fail-fast", value: nil, help: "start no new lane after one fails"),
      OptionSpec(name: "--dry-run", value: nil, help: "print, per lane in start order, whether it is cached or why it would run; run nothing"),
      OptionSpec(name: "--since", value: "REF", help: "run only the lanes the changes since the merge-base with REF touch (commits, staged, unstaged, untracked)", completes: .refs),
      OptionSpec(name: "--changed", value: nil, help: "like --since, from the merge-base with the upstream branch (else origin/HEAD, else HEAD)"),
      OptionSpec(name: "--timeout", value: "DURATION", help: "the default lane timeout, e.g. 90s, 10m, 1h (default: 30m)"),
      OptionSpec(name: "--strict", value: nil, help: "a lane whose requires: program is missing fails, and so does a run that changes tracked files"),
      OptionSpec(name: "--stream", value: "LANE", help: "print this lane's output live (repeatable)", repeatable: true),
      OptionSpec(name: "--no-cache", value: nil, help: "run every lane, even those whose inputs are unchanged since they last passed"),
      OptionSpec(name: "--remote-cache", value: "URL", help: "also read passes and outputs from this Bazel HTTP cache (nginx WebDAV, bazel-remote); also DUET_REMOTE_CACHE, uploads with DUET_REMOTE_CACHE_UPLOAD=1"),
      OptionSpec(name: "--failed", value: nil, help: "run again the lanes that failed in the last recorded run (with their needs)"),
      OptionSpec(name: "--shard", value: "I/N", help: "run shard I of N (a CI matrix): lanes split by recorded durations; implies --no-deps"),
      OptionSpec(name: "--junit", value: "FILE", help: "also write the run as JUnit XML to FILE"),
      OptionSpec(name: "--upstream", value: "JOB=STORE", help: "generated CI: the history store of an earlier job; a lane whose need did not pass there is skipped (repeatable)", repeatable: true),
      OptionSpec(name: "--timings", value: nil, help: "also write the run as an HTML page (lanes on job slots, critical path) to .duet/timings.html, or --timings=FILE", inlineValue: true),
      OptionSpec(name: "--watch", value: nil, help: "after the run, wait for files to change and run again the lanes they affect (Ctrl-C ends it)"),
      CommandSpec.jsonOption,
      CommandSpec.rootOption,
    ],
    details: "exit codes: 0 every lane passed, 1 a lane failed or timed out, 2 a usage or manifest error, 3 duet could not start a lane (no file descriptor, process or memory) and none failed, 130 interrupted\nunder GITHUB_ACTIONS=true: ::error/::warning annotations, log tails in ::group:: blocks, a summary appended to $GITHUB_STEP_SUMMARY"
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let request = try request(arguments)
    let json = arguments.flag("--json")
    let observer = observer(console: console, json: json)
    return try usageOnFailure {
      if arguments.flag("--watch") { return try VerifyWatch.run(request, observer: observer, arguments: arguments, console: console) }
      let response = try verify(request, observer: observer, signals: signalGuard(arguments))
      console.show(response.printout(TextFormat(width: console.width, json: json), request: request))
      return response.exitCode
    }
  }

  /// Routes the signals to the run while it goes (the binary; in-process, none).
  static func signalGuard(_ arguments: ParsedArguments) -> SignalGuard {
    let invocation = arguments.invocation
    return { onSignal, body in invocation.duringSignals({ _ in onSignal() }, body) }
  }

  /// A verify that cannot start: an option the tree cannot satisfy is a usage
  /// error (with the pointer to help); the history unreadable under `--failed` is exit 2.
  static func usageOnFailure(_ body: () throws -> Int32) throws -> Int32 {
    do {
      return try body()
    } catch let failure as VerifyFailure {
      if case .usage(let message) = failure { throw UsageError(message: message, command: "verify") }
      throw CommandFailure(message: "duet verify: error: \(failure)", code: ExitCode.usage)
    }
  }

  /// The observer that prints a run's progress (each run of `--watch` makes its own printer).
  static func observer(console: Console, json: Bool) -> VerifyObserver {
    let progress = Locked<ProgressPrinter?>(nil)
    return VerifyObserver(
      notice: { json ? console.err($0) : console.out($0) },
      warning: { console.err("duet verify: warning: \($0)") },
      error: { console.err("duet verify: error: \($0)") },
      started: { total in progress.withLock { $0 = ProgressPrinter(console: console, quiet: json, total: total) } },
      event: { event in
        guard let printer = progress.withLock({ $0 }) else { return }
        printer.handle(ProgressUpdate(event, total: printer.total))
      },
      ended: { progress.withLock { $0 }?.finish() },
      line: { lane, line in progress.withLock { $0 }?.streamed(lane, line) })
  }

  /// The request the command line asks for; every option checked before any file is read.
  static func request(_ arguments: ParsedArguments) throws -> VerifyRequest {
    let jobs = try arguments.positiveInt("--jobs", command: "verify")
    let timeout = try arguments.duration("--timeout", command: "verify")
    try checkCombinations(arguments)
    let junitPath = try VerifyCI.junitPath(arguments)
    let shard = try VerifyCI.shard(arguments)
    let environment = arguments.invocation.environment
    var request = VerifyRequest(root: try treeRoot(arguments), duetVersion: duetVersion, environment: environment)
    if let jobs { request.jobs = jobs }
    if let timeout { request.defaultTimeout = timeout }
    request.lanes = arguments.all("--lane")
    request.tags = arguments.all("--tag")
    request.skip(arguments.all("--skip"))
    request.noDeps = arguments.flag("--no-deps")
    request.failFast = arguments.flag("--fail-fast")
    request.strict = arguments.flag("--strict")
    request.stream = Set(arguments.all("--stream"))
    request.noCache = arguments.flag("--no-cache")
    request.remoteCache = arguments.value("--remote-cache")
    request.shard = shard
    request.changes(since: arguments.value("--since"), upstream: arguments.flag("--changed"))
    request.failedOnly = arguments.flag("--failed")
    request.upstream = try VerifyCI.upstream(arguments)
    request.dryRun = arguments.flag("--dry-run")
    request.reports = VerifyReports(junitPath: junitPath, environment: environment)
    request.timingsPath = try VerifyCI.timingsPath(arguments, root: request.root)
    request.commandLine = arguments.invocation.commandLine
    request.builtinIdentity = duetCodeIdentity(arguments.invocation, root: request.root, remember: !request.dryRun)
    request.reapOrphans = arguments.invocation.ownsProcess
    return request
  }

  /// The options that cannot go together; reads no file.
  static func checkCombinations(_ arguments: ParsedArguments) throws {
    let noDeps = arguments.flag("--no-deps")
    let shard = arguments.value("--shard") != nil
    let failed = arguments.flag("--failed")
    let chooses = arguments.all("--lane").isEmpty ? (arguments.all("--tag").isEmpty ? nil : "--tag") : "--lane"
    if shard, let chooses { throw UsageError(message: "--shard and \(chooses) cannot be combined", command: "verify") }
    if shard && failed { throw UsageError(message: "--shard and --failed cannot be combined", command: "verify") }
    if failed, let chooses { throw UsageError(message: "--failed and \(chooses) cannot be combined", command: "verify") }
    if noDeps && chooses == nil && !failed && !shard {
      throw UsageError(message: "--no-deps needs --lane NAME or --tag TAG", command: "verify")
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
    if arguments.flag("--watch") {
      for option in ["--json", "--dry-run", "--junit", "--shard", "--failed", "--since", "--changed"] where arguments.flag(option) || arguments.value(option) != nil {
        throw UsageError(message: "--watch and \(option) cannot be combined: --watch runs again the lanes each change affects", command: "verify")
      }
    }
    if arguments.flag("--dry-run") && arguments.value("--junit") != nil {
      throw UsageError(message: "--dry-run and --junit cannot be combined: a dry run has no results to report", command: "verify")
    }
  }
}
