import Foundation
import DuetCommandLine
import DuetSupport

/// `duet workflow github|gitlab`: writes (or, with `--check`, checks) a GitHub Actions or GitLab CI
/// workflow that runs the manifest's lanes as jobs with `needs:` from the DAG.
enum WorkflowCommand: TreeCommand {
  static let output = Option<Self, String?>.text(
    OptionSpec(name: "--output", value: "FILE", help: "where to write it, relative to the root (default: \(WorkflowRequest.System.github.defaultPath) or \(WorkflowRequest.System.gitlab.defaultPath))"))
  static let check = Option<Self, Bool>.flag(
    OptionSpec(name: "--check", value: nil, help: "write nothing; exit 1 when the file is missing or differs from what would be written"))
  static let oneJobPerLane = Option<Self, Bool>.flag(
    OptionSpec(name: "--one-job-per-lane", value: nil, help: "one job per lane instead of lanes grouped per platform and DAG level"))
  static let runnerStart = Option<Self, String?>.text(
    OptionSpec(name: "--runner-start", value: "SECONDS", help: "what a job costs before its first lane starts; a group is split into more jobs only when its recorded durations say that saves more (default 60)"))
  static let duetGit = Option<Self, String?>.text(
    OptionSpec(name: "--duet-git", value: "URL", help: "duet's git repository: its release v\(duetVersion) binary, else built from source (default: the repository variable DUET_GIT_URL)"))

  static let spec = CommandSpec(
    name: "workflow",
    summary: "write a CI pipeline that runs the lanes as jobs ('workflow github' or 'workflow gitlab'); --check gates it for drift",
    usage: "duet workflow github|gitlab [--output FILE] [--check] [--one-job-per-lane] [--runner-start SECONDS] [--duet-git URL] [--root DIR]",
    options: [output.spec, check.spec, oneJobPerLane.spec, runnerStart.spec, duetGit.spec, root.spec],
    positionals: [.words(["github", "gitlab"])],
    exitCodes: [0: "written or up to date", 1: "--check found it stale or missing, or the file could not be written", 2: "a usage or manifest error"],
    examples: ["duet workflow github": "write .github/workflows/duet.yml, one job per lane",
               "duet workflow gitlab --check": "fail (exit 1) when .gitlab-ci.yml no longer matches the manifest"]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let system = try ciSystem(arguments)
    var request = WorkflowRequest(root: try treeRoot(arguments), environment: arguments.invocation.environment,
                                  system: system, duetVersion: duetVersion)
    if let output = try arguments[Self.output] { request.output = output }
    request.check = try arguments[check]
    request.oneJobPerLane = try arguments[oneJobPerLane]
    if let text = try arguments[runnerStart] {
      guard let seconds = DurationText.seconds(text), seconds >= 0, seconds <= WorkflowRequest.maxRunnerStart else {
        throw UsageError(message: "--runner-start needs a duration such as 60, 90s or 2m, got '\(text)'", command: "workflow")
      }
      request.runnerStart = seconds
    }
    if let url = try arguments[duetGit] {
      guard !url.isEmpty, !url.contains(where: { $0.isNewline }) else {
        throw UsageError(message: "--duet-git needs a git URL on one line", command: "workflow")
      }
      request.duetGitURL = url
    }
    // A build that knows its commit pins the fallback build to it (a dirty build's base commit).
    if arguments.invocation.buildCommit != Invocation.unknownCommit {
      request.duetCommit = arguments.invocation.buildCommit.replacingOccurrences(of: "-dirty", with: "")
    }
    return console.show(try workflow(request))
  }

  /// `github` or `gitlab`, the one positional, with the options that go with it.
  static func ciSystem(_ arguments: ParsedArguments<Self>) throws -> WorkflowRequest.System {
    guard let target = arguments.positionals.first else {
      throw UsageError(message: "workflow needs a CI system: duet workflow github or duet workflow gitlab", command: "workflow")
    }
    guard let system = WorkflowRequest.System(rawValue: target) else {
      throw UsageError(message: "unknown CI system '\(target)'\(Suggestion.hint(for: target, in: ["github", "gitlab"])) (workflow supports github and gitlab)", command: "workflow")
    }
    if try system == .gitlab && arguments[duetGit.given] {
      throw UsageError(message: "--duet-git is for github; the GitLab pipeline reads the CI/CD variable DUET_GIT_URL", command: "workflow")
    }
    return system
  }
}
