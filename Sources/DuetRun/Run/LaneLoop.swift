import Foundation
import DuetModel
import DuetTestReports
import DuetProcess
import DuetSandbox
import DuetSupport
import DuetHistory

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The run as one loop, as ninja's `Builder` is: on the thread that calls `run`,
/// it asks the `LaneSchedule` what may start, starts it (a shell lane as a child of
/// its `EventLoop`, a built-in on a thread of its own that posts its result
/// back), waits for the loop to report output, exits and deadlines, and feeds
/// each attempt's end back to the plan, which says what starts next. Every
/// decision is the plan's; every wait is the poller's; the time is the clock's.
/// Tests hand it a scripted poller and clock and drive a whole run by hand.
final class LaneLoop {
  /// One attempt that has started and not yet ended.
  private final class Attempt {
    let request: StepRequest
    let sink: LogSink
    /// When its process started (set again when its start work is done).
    var startedWall: Double
    var startedAt: UInt64
    var child: ChildID?
    var timer: DeadlineList.Token?
    var timedOut = false
    var interrupted = false
    /// The machine could not start it (no descriptor, process or memory).
    var couldNotStart = false
    var note: String?
    /// The lane's reports as the attempt started.
    var reports = TestReportSnapshot()
    /// For a lane with quarantined tests: the runner's build-failure lines in
    /// its output, which no quarantined test can excuse.
    var failureLines: BuildFailureScanner?
    /// The shell's own word that it could not fork: the machine ran out, not the lane.
    var forkFailure = ForkFailureScanner()
    /// When its process (or built-in) ended: its recorded time is the process's, never duet's work after it.
    var endedAt: UInt64?
    var code: Int32?
    var signal: Int32?
    /// Not started yet: its start work (the reports as they are, its inputs
    /// walked again) is on a worker, which posts `prepared`.
    var preparing = false
    /// What the start work found, kept on the loop's thread as the attempt starts.
    var keepOnStart: (() -> Void)?
    /// Ended, its file work on a worker (`AttemptWorkers`); the loop goes on deciding.
    var finishing = false
    /// What the worker found, written before it posts `endRead` and read after.
    var end = EndWork()
    /// A sandboxed attempt that failed inside: whether it passed when run outside (nil: not run there).
    var passedOutside: Bool?

    init(request: StepRequest, startedWall: Double, startedAt: UInt64) {
      self.request = request
      self.sink = LogSink(folder: request.logFolder, fileName: request.logFile, onLine: request.onLine)
      self.startedWall = startedWall
      self.startedAt = startedAt
    }

    /// The outcome its end says, before outputs, reports and the quarantine are weighed.
    var endedAs: AttemptOutcome {
      interrupted ? .interrupted : couldNotStart ? .error : timedOut ? .timeout : code == 0 ? .pass : .fail
    }
  }

  /// The file work of an attempt's end, done on a worker.
  struct EndWork {
    /// A passing attempt's declared outputs, checked (and stored, with a cache).
    var outputs: OutputCheck?
    /// The cases of the reports written during the attempt.
    var tests = JUnitReading()
    /// The inputs that moved while it ran; nil when none did or none were walked.
    var moved: [String]?
    /// A sandboxed attempt's writes outside its outputs, and what its run outside found.
    var sandbox: SandboxedStep.Findings?
  }

  /// What another thread posts to the loop.
  enum Message: Sendable {
    case interrupt
    case builtinEnded(index: Int, attempt: Int, result: BuiltinEnd)
    /// An ended attempt's file work is done (`Attempt.end` holds it).
    case endRead(index: Int, attempt: Int)
    /// An attempt's start work is done: it may start.
    case prepared(index: Int, attempt: Int)
  }

  /// Seconds to wait for the output pipe to close after the lane's shell exited.
  static let drainGrace = 2.0

  private var plan: LaneSchedule
  private let lanes: [Lane]
  private let builtins: BuiltinSet
  private let loop: EventLoop
  private let killGrace: Double
  private let recheck: InputRecheck?
  /// After a passing attempt, on a worker: the declared outputs it left
  /// missing (and, with a cache, its outputs stored): a missing output fails the attempt.
  private let outputs: ((Int, Lane) -> OutputCheck)?
  /// The lane's reports as an attempt starts, and after an attempt that ran to
  /// its end, the test cases of those written during it.
  private let reports: ReportReading?
  /// The quarantine the run applies to a failed attempt (`lanes/quarantine.yaml`).
  private let quarantine: QuarantineRule?
  private let workers: AttemptWorkers
  private var running: [Int: Attempt] = [:]
  /// Children run beside the lanes (the commit the history row names).
  private var alongside: Set<ChildID> = []
  private var finishedEvents = 0
  private var makeRequest: ((Int, Int) -> StepRequest)?
  private var startWork: ((Int, Int) -> StartWork?)?
  private var onEvent: ((RunEvent) -> Void)?
  /// For each lane whose last passing attempt saw its inputs change: which.
  private(set) var moved: [Int: [String]] = [:]

  init(plan: LaneSchedule, lanes: [Lane], builtins: BuiltinSet, poller: any ChildPoller = SystemPoller(),
              clock: any RunClock = SystemClock(), killGrace: Double = 5, recheck: InputRecheck? = nil,
              outputs: ((Int, Lane) -> OutputCheck)? = nil, reports: ReportReading? = nil,
              quarantine: QuarantineRule? = nil, workers: AttemptWorkers = .threads) {
    self.plan = plan
    self.lanes = lanes
    self.builtins = builtins
    self.loop = EventLoop(poller: poller, clock: clock)
    self.killGrace = killGrace
    self.recheck = recheck
    self.outputs = outputs
    self.reports = reports
    self.quarantine = quarantine
    self.workers = workers
    loop.onMessage = { [unowned self] in self.received($0) }
    loop.onStop = { [unowned self] in self.interrupt() }
  }

  /// Ctrl-C from any thread: start nothing more and stop what runs.
  var interrupter: Interrupter { Interrupter(poster: loop.poster) }

  /// Posts Ctrl-C to a run loop from any thread.
  struct Interrupter: Sendable {
    let poster: EventLoop.Poster
    func interrupt() { poster.post(Message.interrupt) }
  }

  /// How often, at most, the run hands its events to the observer's thread:
  /// 50 times a second is live to a reader, and a 1,000-lane run wakes that
  /// thread 25 times instead of once a lane (issue 42, item 6).
  static let handOffInterval = 0.02

  /// Runs every selected lane on this thread and returns when each has an
  /// outcome. `beforeWait` is called as the loop is about to block, at most
  /// every `handOffInterval`: the lanes that may start have started, so what
  /// the caller hands to other threads then (the observer's calls) costs the
  /// next lane no time.
  func run(makeRequest: @escaping (_ index: Int, _ attempt: Int) -> StepRequest,
                  startWork: ((_ index: Int, _ attempt: Int) -> StartWork?)? = nil,
                  onEvent: @escaping (RunEvent) -> Void, beforeWait: (() -> Void)? = nil) -> RunVerdict {
    let clock = loop.clock
    let start = clock.now
    self.makeRequest = makeRequest
    self.startWork = startWork
    self.onEvent = onEvent
    loop.beforeWait = beforeWait
    loop.beforeWaitInterval = LaneLoop.handOffInterval
    loop.deliverPosted()
    startWhatMay()
    loop.run(until: { plan.isFinished && alongside.isEmpty })
    return RunVerdict(lanes: plan.finalRecords, interrupted: plan.interrupted, duration: seconds(since: start))
  }

  /// Runs a short child beside the lanes, on this loop, with a minute's
  /// deadline; `done` gets its output, or nil when it failed. The run ends once
  /// it has; Ctrl-C stops it with the lanes.
  func alongside(_ spec: SpawnSpec, _ done: @escaping ([UInt8]?) -> Void) {
    var kept = BoundedBytes(limit: 64 * 1024)
    var id: ChildID?
    id = loop.start(spec, limits: .init(timeout: 60, killGrace: 1), onBytes: { kept.append($0) }, onEnd: { [unowned self] end in
      if let id { self.alongside.remove(id) }
      done(end.succeeded ? kept.bytes : nil)
    })
    if let id { alongside.insert(id) }
  }

  // MARK: - Starting

  /// Starts what the plan says may start; reports what settled first.
  private func startWhatMay() {
    let starts = plan.nextStarts()
    reportSettled()
    for start in starts { begin(start) }
  }

  /// Starts an attempt; when it needs start work (its reports' state taken,
  /// its inputs walked again), that runs on a worker first and the attempt
  /// starts on its post, so no other lane's deadline waits for it.
  private func begin(_ start: LaneSchedule.Start) {
    let lane = lanes[start.index]
    onEvent?(.started(index: start.index, name: lane.name, attempt: start.attempt))
    guard let request = makeRequest?(start.index, start.attempt) else { return }
    let attempt = Attempt(request: request, startedWall: loop.clock.wallSeconds, startedAt: loop.clock.now)
    if quarantine?.active(lane: lane.name).contains(where: { !$0.isLaneLevel }) == true { attempt.failureLines = BuildFailureScanner() }
    running[start.index] = attempt
    let reports = lane.reports.isEmpty ? nil : self.reports
    let work = startWork?(start.index, start.attempt)
    let sandbox = request.sandbox
    guard reports != nil || work != nil || sandbox != nil else { return launch(attempt) }
    attempt.preparing = true
    let poster = loop.poster, index = start.index, number = start.attempt
    workers.start {
      sandbox?.prepare()
      if let reports { attempt.reports = reports.snapshot(lane) }
      attempt.keepOnStart = work?.run()
      poster.post(Message.prepared(index: index, attempt: number))
    }
  }

  /// Starts a prepared attempt's process (or built-in): its time starts now.
  private func launch(_ attempt: Attempt) {
    attempt.preparing = false
    attempt.keepOnStart?()
    attempt.keepOnStart = nil
    attempt.startedWall = loop.clock.wallSeconds
    attempt.startedAt = loop.clock.now
    switch attempt.request.lane.step {
    case .shell(let command): startShell(attempt, command: command)
    case .builtin(let command, let arguments): startBuiltin(attempt, command: command, arguments: arguments)
    }
  }

  private func startShell(_ attempt: Attempt, command: String) {
    let request = attempt.request, index = request.index, sink = attempt.sink
    if let sandbox = request.sandbox, sandbox.spec == nil { return sandboxCannotStart(attempt, sandbox.problem) }
    let spec = request.sandbox?.spec ?? SpawnSpec.shell(command, directory: request.workingDirectory.path, environment: request.environment)
    let limits = ChildRun.Limits(timeout: request.timeout, killGrace: killGrace, drainGrace: LaneLoop.drainGrace)
    attempt.child = loop.start(spec, limits: limits, onBytes: { bytes in
      sink.write(bytes)
      attempt.failureLines?.feed(bytes)
      attempt.forkFailure.feed(bytes)
    }, onEnd: { [unowned self] end in
      self.shellEnded(index, attempt, end)
    })
  }

  private func shellEnded(_ index: Int, _ attempt: Attempt, _ end: ChildRun.End) {
    if end.timedOut {
      attempt.sink.write("duet: timed out after \(DurationText.formatTimeout(attempt.request.timeout)); stopping the lane\n")
    }
    if let problem = end.spawnError {
      attempt.sink.write("duet: \(problem)\n")
      attempt.note = problem
      attempt.couldNotStart = end.outOfResources
    }
    attempt.forkFailure.finish()
    if let line = attempt.forkFailure.found, end.waitStatus.map({ exitCode(ofWaitStatus: $0) }) != 0 {
      // Not the lane's failure: no flaky evidence, no retry, the run ends ERROR (exit 3).
      attempt.sink.write("duet: the shell could not start a process (the machine is out of processes or memory); the attempt is an error, not a failure\n")
      attempt.note = ("out of processes: \(line)" as TerminalLine).text
      attempt.couldNotStart = true
    }
    attempt.timedOut = end.timedOut
    // Stopped from outside (a signal to duet): interrupted, not failed.
    attempt.interrupted = attempt.interrupted || end.stopped
    // A child that never started counts as the shell's "cannot run" (127).
    let code: Int32? = end.waitStatus.map { exitCode(ofWaitStatus: $0) } ?? 127
    let signal = end.waitStatus.flatMap(terminatingSignal(ofWaitStatus:))
    if let sandbox = attempt.request.sandbox, !attempt.interrupted, !attempt.timedOut, !attempt.couldNotStart {
      // The launcher is spawned itself: one that cannot be executed is the sandbox not starting.
      guard end.spawnError == nil, sandbox.started else { return sandboxCannotStart(attempt, sandbox.cannotStart(end.spawnError)) }
      if code != 0 { return runOutsideSandbox(index, attempt, sandbox, code: code, signal: signal) }
    }
    complete(index, attempt, code: code, signal: signal)
  }

  /// A built-in runs on a thread duet cannot stop; at its deadline the lane
  /// ends as timed out and whatever the built-in returns later is dropped.
  private func startBuiltin(_ attempt: Attempt, command: String, arguments: [String]) {
    let request = attempt.request, index = request.index
    guard let builtin = builtins.lane(named: command) else {
      attempt.sink.write("duet: unknown built-in '\(command)'\n")
      // Ended at the next turn, never inside the start.
      attempt.timer = loop.after(0) { [unowned self] in self.complete(index, attempt, code: 2) }
      return
    }
    attempt.timer = loop.after(request.timeout) { [unowned self] in
      guard self.running[index] === attempt else { return }
      attempt.sink.write("duet: timed out after \(DurationText.formatTimeout(request.timeout)); the built-in's result will be ignored\n")
      attempt.timedOut = true
      self.complete(index, attempt, code: nil)
    }
    let context = BuiltinContext(tree: request.workingDirectory, arguments: arguments, vocabulary: builtins.vocabulary,
                                 environment: request.environment)
    let poster = loop.poster, number = request.attempt
    (workers.startLong ?? workers.start) {
      poster.post(Message.builtinEnded(index: index, attempt: number, result: builtin.run(context)))
    }
  }

  // MARK: - Messages

  private func received(_ message: any Sendable) {
    switch message as? Message {
    case .interrupt?: interrupt()
    case .builtinEnded(let index, let number, let result)?:
      guard let attempt = running[index], attempt.request.attempt == number, attempt.child == nil else { return }
      attempt.sink.write(result.output.hasSuffix("\n") || result.output.isEmpty ? result.output : result.output + "\n")
      complete(index, attempt, code: result.exitCode)
    case .prepared(let index, let number)?:
      guard let attempt = running[index], attempt.request.attempt == number, attempt.preparing else { return }
      launch(attempt)
    case .endRead(let index, let number)?:
      guard let attempt = running[index], attempt.request.attempt == number, attempt.finishing else { return }
      finish(index, attempt, attempt.end)
    case nil: break
    }
  }

  /// Start nothing more and stop what runs; the run ends as interrupted.
  private func interrupt() {
    guard !plan.interrupted else { return }
    plan.interrupt()
    for index in running.keys.sorted() {
      guard let attempt = running[index] else { continue }
      attempt.interrupted = true
      if attempt.finishing {
        // Its work may take long and cannot be stopped: the attempt ends now, its result dropped.
        finish(index, attempt, EndWork())
      } else if let child = attempt.child {
        loop.stop(child)
      } else {
        complete(index, attempt, code: nil)
      }
    }
    alongside.sorted().forEach(loop.stop)
    startWhatMay()
  }

  // MARK: - Ends

  /// An attempt's process (or built-in) ended: its time is taken now, and its
  /// file work goes to a worker that posts `endRead`; with none to do, it is finished at once.
  private func complete(_ index: Int, _ attempt: Attempt, code: Int32?, signal: Int32? = nil) {
    guard running[index] === attempt, !attempt.finishing else { return }
    attempt.timer.map(loop.cancel)
    attempt.timer = nil
    // A sandboxed attempt's time ends with its run inside, not with the run outside after it.
    attempt.endedAt = attempt.endedAt ?? loop.clock.now
    attempt.code = code
    attempt.signal = signal
    guard let (work, touchesFiles) = endWork(index, attempt) else { return finish(index, attempt, EndWork()) }
    // Nothing declared to store, read or walk: judged at once (a worker's round trip cost a `true` lane a fifth of its time).
    guard touchesFiles else { return finish(index, attempt, work()) }
    attempt.finishing = true
    let poster = loop.poster, number = attempt.request.attempt
    workers.start {
      attempt.end = work()
      poster.post(Message.endRead(index: index, attempt: number))
    }
  }

  /// The file work an ended attempt needs, as a closure for a worker, or nil:
  /// a pass's outputs checked and stored, the reports of an attempt that ran
  /// to its end read (an interrupted one's are half written), and the inputs
  /// of a pass (or of a failure the quarantine may excuse) walked again. It
  /// touches nothing the loop owns: what it reads is handed to it here.
  /// `touchesFiles` is false when the lane declares no output, report or
  /// input and is not sandboxed: its work only says so.
  private func endWork(_ index: Int, _ attempt: Attempt) -> (work: () -> EndWork, touchesFiles: Bool)? {
    let lane = attempt.request.lane, endedAs = attempt.endedAs
    let outputs = endedAs == .pass ? self.outputs : nil
    let ranToEnd = [.pass, .fail, .timeout].contains(endedAs)
    let reports = ranToEnd && !lane.reports.isEmpty ? self.reports : nil
    let excusable = ranToEnd && quarantine?.active(lane: lane.name).isEmpty == false
    let recheck = self.recheck
    let inputs = endedAs == .pass || excusable ? recheck?.files(of: index) : nil
    let sandbox = attempt.request.sandbox, passedOutside = attempt.passedOutside
    guard outputs != nil || reports != nil || inputs != nil || sandbox != nil else { return nil }
    let since = attempt.startedWall, snapshot = attempt.reports
    let touchesFiles = !lane.outputs.isEmpty || reports != nil || inputs?.isEmpty == false || sandbox != nil
    return ({
      var end = EndWork()
      // First: the outputs and reports the lane wrote in the sandbox come back into the tree.
      end.sandbox = sandbox?.finish(passedOutside: passedOutside)
      end.outputs = outputs?(index, lane)
      end.tests = reports?.read(lane, since, snapshot) ?? JUnitReading()
      if let inputs, let recheck { end.moved = recheck.moved(lane, since: inputs) }
      return end
    }, touchesFiles)
  }

  /// Judges an ended attempt with its file work done, on the loop's thread:
  /// missing outputs fail it, the quarantine may excuse it, and the plan says what starts next.
  private func finish(_ index: Int, _ attempt: Attempt, _ end: EndWork) {
    guard running[index] === attempt else { return }
    running[index] = nil
    var outcome = attempt.endedAs
    let request = attempt.request, code = attempt.code, signal = attempt.signal
    var missingOutputs = false
    if let findings = end.sandbox { outcome = judgeSandboxed(attempt, outcome: outcome, findings) }
    if outcome == .pass, let check = end.outputs {
      if check.missing.isEmpty {
        check.keep()
      } else {
        missingOutputs = true
        // A pass without its declared products is no pass: the lane that reads
        // them would fail instead, blamed for what this one did not write.
        let missing = check.missing, plural = missing.count == 1 ? "" : "s"
        attempt.sink.write(("duet: the lane exited 0 but did not write its declared output\(plural) \(missing.joined(separator: ", "))\n" as TerminalLine).text)
        attempt.note = ("missing output\(plural): \(FingerprintParts.listed(missing))" as TerminalLine).text
        outcome = .fail
      }
    }
    let tests = end.tests
    for warning in tests.warnings { attempt.sink.write(("duet: warning: report \(warning)\n" as TerminalLine).text) }
    let failedAs = outcome
    let excused = judge(attempt, outcome: outcome, code: code, signal: signal, tests: tests, missingOutputs: missingOutputs)
    if excused != nil { outcome = .pass }
    attempt.sink.close()
    let endedAt = attempt.endedAt ?? loop.clock.now
    var result = LaneAttempt(attempt: request.attempt, outcome: outcome, exitCode: code, signal: signal,
                               started: attempt.startedWall, duration: Double(endedAt &- attempt.startedAt) / 1e9,
                               logPath: attempt.sink.wroteFile ? request.logPath : nil, tail: attempt.sink.tail, note: attempt.note)
    result.tests = tests
    result.excused = excused != nil
    if let excused {
      result.quarantinedBy = quarantine?.active(lane: request.lane.name) ?? []
      result.excusedFailure = failedAs
      if case .tests(let names) = excused { result.quarantinedFailures = names }
    }
    if outcome == .pass, recheck != nil { moved[index] = end.moved }
    if case .retry(let next) = plan.attemptEnded(index, result) {
      onEvent?(.retrying(index: index, name: lanes[index].name, failed: result))
      begin(next)
    }
    startWhatMay()
  }

  /// What the quarantine makes of a failed attempt (`QuarantineExcuseCheck`):
  /// its excuse, said in the lane's log and note, or nil; why quarantined
  /// tests could not excuse it is said there too. Still recorded as read: the
  /// failures stay in the history.
  private func judge(_ attempt: Attempt, outcome: AttemptOutcome, code: Int32?, signal: Int32?, tests: JUnitReading,
                     missingOutputs: Bool) -> QuarantineExcuse? {
    attempt.failureLines?.finish()
    guard let quarantine else { return nil }
    let lane = attempt.request.lane
    let evidence = QuarantineExcuseCheck.Attempt(
      outcome: outcome, exitCode: code, signal: signal, tests: tests,
      reportGlobs: lane.reports,
      missingOutputs: missingOutputs, buildFailure: attempt.failureLines?.found)
    switch QuarantineExcuseCheck.judge(evidence, lane: lane.name, rule: quarantine) {
    case .excused(let excuse)?:
      attempt.sink.write("duet: \(excuse.note); the lane passes by \(QuarantineFile.defaultPath)\n")
      attempt.note = excuse.note
      return excuse
    case .refused(let why)?:
      attempt.sink.write("duet: \(why)\n")
      attempt.note = attempt.note ?? why
      return nil
    case nil:
      return nil
    }
  }

  // MARK: - Sandbox (issue 56)

  /// The sandbox could not be made or bubblewrap could not start the lane:
  /// the machine's failure, an `error` (exit 3), never the lane's.
  private func sandboxCannotStart(_ attempt: Attempt, _ problem: String?) {
    let note = problem ?? "the sandbox could not start the lane"
    attempt.sink.write("duet: \(note)\n")
    attempt.note = note
    attempt.couldNotStart = true
    let index = attempt.request.index
    // Ended at the next turn, never inside the start or the end that found it.
    attempt.timer = loop.after(0) { [unowned self] in self.complete(index, attempt, code: nil) }
  }

  /// A lane that failed in the sandbox runs again outside it (traced when
  /// strace is installed, output to its own log): passing there says its
  /// declaration misses something, and the trace names what.
  private func runOutsideSandbox(_ index: Int, _ attempt: Attempt, _ sandbox: SandboxedStep, code: Int32?, signal: Int32?) {
    attempt.endedAt = loop.clock.now
    let request = attempt.request
    let log = (request.logPath as NSString).deletingLastPathComponent + "/" + sandbox.outsideLogName
    attempt.sink.write(("duet: the lane failed in the sandbox; running it outside to see what it reads that it does not declare (log: \(log))\n" as TerminalLine).text)
    let outside = LogSink(folder: request.logFolder, fileName: sandbox.outsideLogName, onLine: nil)
    let limits = ChildRun.Limits(timeout: request.timeout, killGrace: killGrace, drainGrace: LaneLoop.drainGrace)
    attempt.child = loop.start(sandbox.outsideSpec, limits: limits, onBytes: { outside.write($0) }, onEnd: { [unowned self] end in
      outside.close()
      attempt.interrupted = attempt.interrupted || end.stopped
      attempt.passedOutside = !end.timedOut && end.waitStatus.map { exitCode(ofWaitStatus: $0) } == 0
      self.complete(index, attempt, code: code, signal: signal)
    })
  }

  /// A sandboxed attempt's outcome with what the sandbox found: a write
  /// outside its outputs fails it; a failure that passed outside is named.
  private func judgeSandboxed(_ attempt: Attempt, outcome: AttemptOutcome, _ findings: SandboxedStep.Findings) -> AttemptOutcome {
    var outcome = outcome
    for problem in findings.problems { attempt.sink.write("duet: \(problem)\n") }
    var notes = findings.note.map { [$0] } ?? []
    if !findings.strays.isEmpty {
      notes.append(SandboxFindings.wroteOutside(findings.strays))
      attempt.sink.write("duet: only the lane's outputs: and reports: come back from the sandbox; what it wrote elsewhere is not kept\n")
      if outcome == .pass { outcome = .fail }
    }
    guard !notes.isEmpty else { return outcome }
    let note = notes.joined(separator: "; ")
    attempt.sink.write("duet: \(note)\n")
    attempt.note = note
    return outcome
  }

  /// One `finished` event per lane, in the order the plan settled them.
  private func reportSettled() {
    for record in plan.takeSettled() {
      finishedEvents += 1
      onEvent?(.finished(record, finishedCount: finishedEvents, total: plan.total))
    }
  }

  private func seconds(since start: UInt64) -> Double {
    Double(loop.clock.now &- start) / 1e9
  }
}

/// How the run loop reads a lane's `reports:`: what they are as an attempt
/// starts, and the cases of those written during it (since the wall-clock start,
/// changed from the snapshot). Tests hand it in; `VerifyPipeline` reads files.
struct ReportReading {
  var snapshot: (Lane) -> TestReportSnapshot
  var read: (Lane, Double, TestReportSnapshot) -> JUnitReading

}
