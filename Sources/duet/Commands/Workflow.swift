import Foundation
import DuetApp
import DuetCI
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet workflow github|gitlab`: writes (or, with `--check`, checks) a GitHub Actions or GitLab CI
/// workflow that runs the manifest's lanes as jobs with `needs:` from the DAG.
enum WorkflowCommand: Command {
  static let spec = CommandSpec(
    name: "workflow",
    summary: "write a CI pipeline that runs the lanes as jobs ('workflow github' or 'workflow gitlab'); --check gates it for drift",
    usage: "duet workflow github|gitlab [--output FILE] [--check] [--one-job-per-lane] [--runner-start SECONDS] [--duet-git URL] [--root DIR]",
    options: [
      OptionSpec(name: "--output", value: "FILE", help: "where to write it, relative to the root (default: \(GitHubWorkflow.defaultPath) or \(GitLabPipeline.defaultPath))"),
      OptionSpec(name: "--check", value: nil, help: "write nothing; exit 1 when the file is missing or differs from what would be written"),
      OptionSpec(name: "--one-job-per-lane", value: nil, help: "one job per lane instead of lanes grouped per platform and DAG level"),
      OptionSpec(name: "--runner-start", value: "SECONDS", help: "what a job costs before its first lane starts; a group is split into more jobs only when its recorded durations say that saves more (default 60)"),
      OptionSpec(name: "--duet-git", value: "URL", help: "duet's git repository: its release v\(duetVersion) binary, else built from source (default: the repository variable DUET_GIT_URL)"),
      CommandSpec.rootOption,
    ],
    positionals: [.words(["github", "gitlab"])],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "written or up to date"),
      ExitCodeDoc(code: 1, meaning: "--check found it stale or missing, or the file could not be written"),
      ExitCodeDoc(code: 2, meaning: "a usage or manifest error"),
    ],
    examples: [
      HelpExample(command: "duet workflow github", what: "write .github/workflows/duet.yml, one job per lane"),
      HelpExample(command: "duet workflow gitlab --check", what: "fail (exit 1) when .gitlab-ci.yml no longer matches the manifest"),
    ]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let target = try ciSystem(arguments)
    let defaultPath = target == "gitlab" ? GitLabPipeline.defaultPath : GitHubWorkflow.defaultPath
    let output = arguments.value("--output") ?? defaultPath
    let root = try treeRoot(arguments)
    do {
      _ = try TreePath.resolveForWriting(output, in: root)
    } catch {
      throw UsageError(message: "--output \(output): \(error)", command: "workflow")
    }
    let manifest = try loadManifest(root: root)
    let jobs = try jobOptions(arguments, manifest: manifest, root: root, console: console)
    let (data, jobCount) = try render(target, manifest: manifest, jobs: jobs, root: root, arguments: arguments)

    if arguments.flag("--check") {
      return try check(target, output: output, defaultPath: defaultPath, against: data, manifest: manifest, jobCount: jobCount, root: root, console: console)
    }
    let changed: Bool
    do {
      changed = try AtomicFile.write(data, to: output, in: root)
    } catch {
      throw CommandFailure(message: "duet workflow \(target): error: \(error)", code: ExitCode.failed)
    }
    let summary = "\(manifest.lanes.count) lane(s) in \(jobCount) job(s), duet's build and \(GitHubWorkflow.summaryJobID)"
    console.out(changed ? "duet workflow \(target): wrote \(output) (\(summary))" : "duet workflow \(target): \(output) is already up to date (\(summary))")
    return ExitCode.pass
  }

  /// `github` or `gitlab`, the one positional, with the options that go with it.
  static func ciSystem(_ arguments: ParsedArguments) throws -> String {
    guard let target = arguments.positionals.first else {
      throw UsageError(message: "workflow needs a CI system: duet workflow github or duet workflow gitlab", command: "workflow")
    }
    guard target == "github" || target == "gitlab" else {
      throw UsageError(message: "unknown CI system '\(target)'\(Suggestion.hint(for: target, in: ["github", "gitlab"])) (workflow supports github and gitlab)", command: "workflow")
    }
    if target == "gitlab" && arguments.value("--duet-git") != nil {
      throw UsageError(message: "--duet-git is for github; the GitLab pipeline reads the CI/CD variable DUET_GIT_URL", command: "workflow")
    }
    return target
  }

  /// `--one-job-per-lane`, `--runner-start` and the recorded durations.
  static func jobOptions(_ arguments: ParsedArguments, manifest: Manifest, root: URL, console: Console) throws -> CIJobPlan.Options {
    var jobs = CIJobPlan.Options()
    jobs.oneJobPerLane = arguments.flag("--one-job-per-lane")
    if let text = arguments.value("--runner-start") {
      guard let seconds = DurationText.seconds(text), seconds >= 0, seconds <= Lane.maxTimeout else {
        throw UsageError(message: "--runner-start needs a duration such as 60, 90s or 2m, got '\(text)'", command: "workflow")
      }
      jobs.runnerStart = seconds
    }
    if !jobs.oneJobPerLane {
      let read = WorkflowInputs.durations(root: root, manifest: manifest, environment: arguments.invocation.environment)
      if let problem = read.problem { console.err("duet workflow: warning: \(problem)") }
      jobs.durations = read.durations
    }
    return jobs
  }

  /// The workflow text for `target`, stamped with this duet's version (and
  /// commit, for GitHub), and how many lane jobs it has.
  static func render(_ target: String, manifest: Manifest, jobs: CIJobPlan.Options, root: URL, arguments: ParsedArguments) throws -> (Data, Int) {
    var options = GitHubWorkflow.Options(duetVersion: duetVersion)
    options.manifestPath = manifest.path
    options.jobs = jobs
    options.toolchains = WorkflowInputs.toolchains(root: root)
    // A build that knows its commit pins the fallback build to it (a dirty build's base commit).
    if duetBuildCommit != "unknown commit" {
      options.duetCommit = duetBuildCommit.replacingOccurrences(of: "-dirty", with: "")
    }
    if let url = arguments.value("--duet-git") {
      guard !url.isEmpty, !url.contains(where: { $0.isNewline }) else {
        throw UsageError(message: "--duet-git needs a git URL on one line", command: "workflow")
      }
      options.duetGitURL = url
    }
    var gitlab = GitLabPipeline.Options(duetVersion: duetVersion)
    gitlab.manifestPath = manifest.path
    gitlab.jobs = jobs
    gitlab.toolchains = options.toolchains
    do {
      if target == "gitlab" {
        return (try GitLabPipeline.renderData(manifest, options: gitlab), try GitLabPipeline.plan(manifest, options: gitlab).jobs.count)
      }
      return (try GitHubWorkflow.renderData(manifest, options: options), try GitHubWorkflow.plan(manifest, options: options).jobs.count)
    } catch {
      throw CommandFailure(message: "duet workflow \(target): error: \(manifest.path): \(error)", code: ExitCode.usage)
    }
  }

  /// `--check`: passes when the file at `output` holds exactly `data`.
  static func check(
    _ target: String, output: String, defaultPath: String, against data: Data, manifest: Manifest, jobCount: Int, root: URL, console: Console
  ) throws -> Int32 {
    let read: Data?
    do {
      read = try PathGuard.read(output, in: root)
    } catch {
      throw CommandFailure(message: "duet workflow \(target) --check: error: \(error)", code: ExitCode.failed)
    }
    guard let existing = read else {
      console.err("duet workflow \(target) --check: \(output) is missing; run 'duet workflow \(target)\(outputFlag(output, defaultPath))' to write it")
      return ExitCode.failed
    }
    guard existing == data else {
      console.err("duet workflow \(target) --check: \(output) is stale (it differs from what \(manifest.path) gives); run 'duet workflow \(target)\(outputFlag(output, defaultPath))' to regenerate it")
      return ExitCode.failed
    }
    console.out("duet workflow \(target) --check: \(output) is up to date (\(manifest.lanes.count) lane(s) in \(jobCount) job(s))")
    return ExitCode.pass
  }

  static func outputFlag(_ output: String, _ defaultPath: String) -> String {
    output == defaultPath ? "" : " --output \(output)"
  }
}
