import DuetAdopt
import DuetModel
import DuetRun
import DuetCI
import DuetSupport
import Foundation

/// `duet workflow github|gitlab`: a CI pipeline that runs the manifest's lanes
/// as jobs with `needs:` from the DAG, written or (`check`) compared.
struct WorkflowRequest: Sendable {
  enum System: String, Sendable {
    case github, gitlab
    /// Where the file goes when `--output` names no other place, relative to the root.
    var defaultPath: String { self == .gitlab ? GitLabPipeline.defaultPath : GitHubWorkflow.defaultPath }
  }

  var root: URL
  /// The invocation's environment: `DUET_HISTORY` says where the durations are read from.
  var environment: [String: String]
  var system: System
  /// Relative to the root.
  var output: String
  var check = false
  var oneJobPerLane = false
  /// `--runner-start`: what a job costs before its first lane starts, in seconds.
  var runnerStart: Double?
  /// `--duet-git URL` (GitHub only).
  var duetGitURL: String?
  /// The duet the workflow installs, and the commit its fallback build is pinned to.
  var duetVersion: String
  var duetCommit: String?

  init(root: URL, environment: [String: String], system: System, duetVersion: String) {
    self.root = root
    self.environment = environment
    self.system = system
    self.output = system.defaultPath
    self.duetVersion = duetVersion
  }

  /// The summary job's id, which the command's messages name.
  static let summaryJobID = GitHubWorkflow.summaryJobID
  /// The longest `--runner-start` a lane could take.
  static let maxRunnerStart = Lane.maxTimeout
}

/// What became of the pipeline file.
enum WorkflowOutcome: Sendable {
  /// Written (or already so): the file, whether it changed, lanes and jobs.
  case written(output: String, changed: Bool, lanes: Int, jobs: Int)
  /// `--check`: up to date, or missing or stale (exit 1).
  case upToDate(output: String, lanes: Int, jobs: Int)
  case missing(output: String)
  case stale(output: String, manifest: String)

  var exitCode: Int32 {
    switch self {
    case .written, .upToDate: return ExitCode.pass
    case .missing, .stale: return ExitCode.failed
    }
  }
}

/// The file's outcome, with the request it answers (the messages name the CI
/// system and `--output`) and the warnings (durations that could not be read).
struct WorkflowResponse: CommandResponse {
  var request: WorkflowRequest
  var outcome: WorkflowOutcome
  var warnings: [String] = []
  var exitCode: Int32 { outcome.exitCode }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    for warning in warnings { printout.err("duet workflow: warning: \(warning)") }
    let target = request.system.rawValue
    let again = "run 'duet workflow \(target)\(request.output == request.system.defaultPath ? "" : " --output \(request.output)")'"
    switch outcome {
    case .written(let output, let changed, let lanes, let jobs):
      let summary = "\(lanes) lane(s) in \(jobs) job(s), duet's build and \(WorkflowRequest.summaryJobID)"
      printout.out(changed ? "duet workflow \(target): wrote \(output) (\(summary))" : "duet workflow \(target): \(output) is already up to date (\(summary))")
    case .upToDate(let output, let lanes, let jobs):
      printout.out("duet workflow \(target) --check: \(output) is up to date (\(lanes) lane(s) in \(jobs) job(s))")
    case .missing(let output):
      printout.err("duet workflow \(target) --check: \(output) is missing; \(again) to write it")
    case .stale(let output, let manifest):
      printout.err("duet workflow \(target) --check: \(output) is stale (it differs from what \(manifest) gives); \(again) to regenerate it")
    }
    return printout
  }
}

/// Throws `UsageError` for an `--output` outside the tree, `ManifestError`, and
/// `CommandFailure` for a pipeline that cannot be rendered, read or written.
func workflow(_ request: WorkflowRequest) throws -> WorkflowResponse {
  let target = request.system.rawValue
  do {
    _ = try TreePath.resolveForWriting(request.output, in: request.root)
  } catch {
    throw UsageError(message: "--output \(request.output): \(error)", command: "workflow")
  }
  let manifest = try TreeManifest.load(root: request.root).manifest
  var warnings: [String] = []
  var jobs = CIJobPlan.Options()
  jobs.oneJobPerLane = request.oneJobPerLane
  if let seconds = request.runnerStart { jobs.runnerStart = seconds }
  if !jobs.oneJobPerLane {
    let read = WorkflowInputs.durations(root: request.root, manifest: manifest, environment: request.environment)
    if let problem = read.problem { warnings.append(problem) }
    jobs.durations = read.durations
  }
  let (data, jobCount) = try WorkflowText.render(request, manifest: manifest, jobs: jobs)
  let outcome: WorkflowOutcome
  if request.check {
    let read: Data?
    do {
      read = try PathGuard.read(request.output, in: request.root)
    } catch {
      throw CommandFailure(message: "duet workflow \(target) --check: error: \(error)", code: ExitCode.failed)
    }
    if let existing = read {
      outcome = existing == data ? .upToDate(output: request.output, lanes: manifest.lanes.count, jobs: jobCount)
                                  : .stale(output: request.output, manifest: manifest.path)
    } else {
      outcome = .missing(output: request.output)
    }
  } else {
    do {
      let changed = try AtomicFile.write(data, to: request.output, in: request.root)
      outcome = .written(output: request.output, changed: changed, lanes: manifest.lanes.count, jobs: jobCount)
    } catch {
      throw CommandFailure(message: "duet workflow \(target): error: \(error)", code: ExitCode.failed)
    }
  }
  return WorkflowResponse(request: request, outcome: outcome, warnings: warnings)
}

/// The pipeline's bytes for the request's CI system, and how many lane jobs it has.
enum WorkflowText {
  static func render(_ request: WorkflowRequest, manifest: Manifest, jobs: CIJobPlan.Options) throws(CommandFailure) -> (Data, Int) {
    var options = GitHubWorkflow.Options(duetVersion: request.duetVersion)
    options.manifestPath = manifest.path
    options.jobs = jobs
    options.toolchains = WorkflowInputs.toolchains(root: request.root)
    options.duetCommit = request.duetCommit
    options.duetGitURL = request.duetGitURL
    var gitlab = GitLabPipeline.Options(duetVersion: request.duetVersion)
    gitlab.manifestPath = manifest.path
    gitlab.jobs = jobs
    gitlab.toolchains = options.toolchains
    do {
      if request.system == .gitlab {
        return (try GitLabPipeline.renderData(manifest, options: gitlab), try GitLabPipeline.plan(manifest, options: gitlab).jobs.count)
      }
      return (try GitHubWorkflow.renderData(manifest, options: options), try GitHubWorkflow.plan(manifest, options: options).jobs.count)
    } catch {
      throw CommandFailure(message: "duet workflow \(request.system.rawValue): error: \(manifest.path): \(error)", code: ExitCode.usage)
    }
  }
}
