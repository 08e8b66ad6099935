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
  /// In seconds.
  static let runnerStart = Option<Self, Double?>.converted(
    OptionSpec(name: "--runner-start", value: "SECONDS", help: "what a job costs before its first lane starts; a group is split into more jobs only when its recorded durations say that saves more (default 60)")) { text, command throws(UsageError) in
      guard let seconds = DurationText.seconds(text), seconds >= 0, seconds <= WorkflowRequest.maxRunnerStart else {
        throw UsageError(message: "--runner-start needs a duration such as 60, 90s or 2m, got '\(text)'", command: command)
      }
      return seconds
    }
  static let duetGit = Option<Self, String?>.text(
    OptionSpec(name: "--duet-git", value: "URL", help: "duet's git repository: its release v\(duetVersion) binary, else built from source (default: the repository variable DUET_GIT_URL)"))
    .checkingEach { url, command throws(UsageError) in
      guard url.isEmpty || url.contains(where: \.isNewline) else { return }
      throw UsageError(message: "--duet-git needs a git URL on one line", command: command)
    }

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

  /// `duet workflow`'s command line: the CI system, and each value checked.
  struct Options {
    var root: String?
    var system: WorkflowRequest.System
    var output: String?
    var check: Bool
    var oneJobPerLane: Bool
    /// `--runner-start`, in seconds.
    var runnerStart: Double?
    /// `--duet-git URL`, one line.
    var duetGit: String?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    let system = try ciSystem(line)
    return Options(root: try line[root], system: system, output: try line[output], check: try line[check],
                   oneJobPerLane: try line[oneJobPerLane], runnerStart: try line[runnerStart], duetGit: try line[duetGit])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = WorkflowRequest(root: try call.treeRoot(options.root), environment: call.environment,
                                  system: options.system, duetVersion: duetVersion)
    if let output = options.output { request.output = output }
    request.check = options.check
    request.oneJobPerLane = options.oneJobPerLane
    if let runnerStart = options.runnerStart { request.runnerStart = runnerStart }
    if let duetGit = options.duetGit { request.duetGitURL = duetGit }
    // A build that knows its commit pins the fallback build to it (a dirty build's base commit).
    let buildCommit = call.invocation.buildCommit
    if buildCommit != Invocation.unknownCommit {
      request.duetCommit = buildCommit.replacingOccurrences(of: "-dirty", with: "")
    }
    return call.console.show(try workflow(request))
  }

  /// `github` or `gitlab`, the one positional, with the options that go with it.
  static func ciSystem(_ line: ParsedArguments<Self>) throws -> WorkflowRequest.System {
    guard let target = line.positionals.first else {
      throw UsageError(message: "workflow needs a CI system: duet workflow github or duet workflow gitlab", command: "workflow")
    }
    guard let system = WorkflowRequest.System(rawValue: target) else {
      throw UsageError(message: "unknown CI system '\(target)'\(Suggestion.hint(for: target, in: ["github", "gitlab"])) (workflow supports github and gitlab)", command: "workflow")
    }
    if try system == .gitlab && line[duetGit.given] {
      throw UsageError(message: "--duet-git is for github; the GitLab pipeline reads the CI/CD variable DUET_GIT_URL", command: "workflow")
    }
    return system
  }
}
