import DuetDoctor
import DuetModel
import DuetRun
import DuetSandbox
import DuetSupport
import Foundation

/// `duet doctor --sandbox` (issue 56): every lane run as `duet verify
/// --sandbox --no-cache` runs it, with the history off, and one line per lane
/// with its verdict: proven (passed where only its declaration exists), or
/// what broke its declaration. A lane that fails outside the sandbox too, or
/// lacks a program, is a problem of its own; a sandbox that could not start is
/// the machine's (exit 3). Throws a `UsageError` (exit 2) when this machine
/// has no sandbox, naming what to install.
func sandboxDoctor(_ request: DoctorRequest, duetVersion: String) throws -> DoctorResponse {
  var report = DoctorReport(root: request.root.path)
  report.ranInSandbox = true
  guard let foundBy = request.foundBy else {
    report.add("tree", "none: no \(Manifest.defaultPath) or \(ParityManifest.defaultPath) in \(request.root.path) or any folder above it")
    report.problem("no tree: run duet doctor inside one, pass --root DIR, or write a manifest with 'duet init'")
    return DoctorResponse(report: report)
  }
  report.add("tree", "\(request.root.path) (found by \(foundBy))")
  let tools: SandboxTools
  switch SandboxTools.find(path: request.environment[.path] ?? "/usr/bin:/bin", command: "doctor") {
  case .success(let found): tools = found
  case .failure(let error): throw error
  }
  report.add("sandbox", SandboxDoctorLines.tools(tools))
  var environment = request.environment
  // A proof, not a run of record: `verify --failed` and the stats do not see it.
  environment[.history] = "off"
  var verifyRequest = VerifyRequest(root: request.root, duetVersion: duetVersion, environment: environment)
  verifyRequest.options.sandbox = true
  verifyRequest.options.noCache = true
  verifyRequest.commandLine = "duet doctor --sandbox"
  let response: VerifyResponse
  do {
    response = try verify(verifyRequest)
  } catch let error as ManifestError {
    report.problem("\(error)")
    return DoctorResponse(report: report)
  }
  guard case .ran(let verdict, let decided) = response, let manifest = decided?.plan.manifest else {
    return DoctorResponse(report: report)
  }
  for record in verdict.lanes {
    SandboxDoctorLines.add(record, lane: manifest.lanes[record.index], into: &report)
  }
  return DoctorResponse(report: report)
}

/// The lines of `duet doctor --sandbox`: the sandbox's tools, and each lane's verdict.
enum SandboxDoctorLines {
  /// `bubblewrap /usr/bin/bwrap; strace /usr/bin/strace (names what a lane reads outside its inputs)`.
  static func tools(_ tools: SandboxTools) -> String {
    let strace = tools.strace.map { "strace \($0) (names what a lane reads outside its inputs)" }
      ?? "no strace: a lane that reads outside its inputs is found, its files not named (install strace)"
    return "\(tools.kind.name) \(tools.launcher); \(strace)"
  }

  /// One lane's line, and its problem when it has one.
  static func add(_ record: LaneVerdict, lane: Lane, into report: inout DoctorReport) {
    let topic = "lane \(record.name)"
    // A note is escaped where the run made it, and `doctor` prints each line
    // as a terminal line: neither is escaped here again.
    let note = record.last?.note
    let log = record.last?.logPath.map { " (log: \($0))" } ?? ""
    switch record.outcome {
    case .pass, .flaky, .cached:
      let retry = record.outcome == .flaky ? " on a retry" : ""
      report.add(topic, lane.isBuiltin ? "built-in: passed, inside duet (a built-in is not sandboxed)" : "proven: passed in the sandbox\(retry)")
    case .fail, .timeout:
      let what = lane.isBuiltin
        ? "built-in: failed inside duet (a built-in is not sandboxed)"
        : record.outcome == .timeout ? "timed out in the sandbox" : note ?? "fails in the sandbox and outside it: a failure of its own, not of its declaration"
      report.add(topic, what)
      report.problem("\(topic): \(what)\(log)")
    case .error:
      let what = "could not start: \(note ?? "the sandbox could not start the lane")"
      report.add(topic, what)
      report.problem("\(topic): \(what)\(log)")
      report.couldNotStart += 1
    case .skipped, .cancelled, .unaffected, .interrupted:
      let reason = record.reason.map { ": \($0)" } ?? ""
      report.add(topic, "not proven: \(record.outcome.rawValue)\(reason)")
      if !record.missingPrograms.isEmpty { report.problem("\(topic): not run: \(record.reason ?? "a program is missing")") }
    }
  }
}
