import DuetKit
import Foundation

/// `duet workflow github`: writes (or, with `--check`, checks) a GitHub Actions
/// workflow that runs the manifest's lanes as jobs with `needs:` from the DAG.
enum WorkflowCommand: Command {
  static let spec = CommandSpec(
    name: "workflow",
    summary: "write a GitHub Actions workflow with one job per lane ('workflow github'); --check gates it for drift",
    usage: "duet workflow github [--output FILE] [--check] [--duet-git URL] [--root DIR]",
    options: [
      OptionSpec(name: "--output", value: "FILE", help: "where to write it, relative to the root (default: \(GitHubWorkflow.defaultPath))"),
      OptionSpec(name: "--check", value: nil, help: "write nothing; exit 1 when the file is missing or differs from what would be written"),
      OptionSpec(name: "--duet-git", value: "URL", help: "duet's git repository: its release v\(duetVersion) binary, else built from source (default: the repository variable DUET_GIT_URL)"),
      CommandSpec.rootOption,
    ],
    positionals: [.words(["github"])],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "written or up to date"),
      ExitCodeDoc(code: 1, meaning: "--check found it stale or missing"),
      ExitCodeDoc(code: 2, meaning: "a usage or manifest error"),
    ],
    examples: [
      HelpExample(command: "duet workflow github", what: "write .github/workflows/duet.yml, one job per lane"),
      HelpExample(command: "duet workflow github --check", what: "fail (exit 1) when the workflow no longer matches the manifest"),
    ]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard let target = arguments.positionals.first else {
      throw UsageError(message: "workflow needs a CI system: duet workflow github", command: "workflow")
    }
    guard target == "github" else {
      throw UsageError(message: "unknown CI system '\(target)'\(Suggestion.hint(for: target, in: ["github"])) (workflow supports github)", command: "workflow")
    }
    let output = arguments.value("--output") ?? GitHubWorkflow.defaultPath
    let root = try treeRoot(arguments)
    let file: URL
    do {
      file = try TreePath.resolveForWriting(output, in: root)
    } catch {
      throw UsageError(message: "--output \(output): \(error)", command: "workflow")
    }
    let manifest = try loadManifest(root: root)
    var options = GitHubWorkflow.Options(duetVersion: duetVersion)
    options.manifestPath = manifest.path
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
    let text = GitHubWorkflow.render(manifest, options: options)
    let data = Data(text.utf8)

    if arguments.flag("--check") {
      guard let existing = FileManager.default.contents(atPath: file.path) else {
        console.err("duet workflow github --check: \(output) is missing; run 'duet workflow github\(outputFlag(output))' to write it")
        return ExitCode.failed
      }
      guard existing == data else {
        console.err("duet workflow github --check: \(output) is stale (it differs from what \(manifest.path) gives); run 'duet workflow github\(outputFlag(output))' to regenerate it")
        return ExitCode.failed
      }
      console.out("duet workflow github --check: \(output) is up to date (\(manifest.lanes.count) lane job(s))")
      return ExitCode.pass
    }
    let changed: Bool
    do {
      changed = try AtomicFile.write(data, to: output, in: root)
    } catch {
      throw CommandFailure(message: "duet workflow github: error: \(error)", code: ExitCode.failed)
    }
    let jobs = "\(manifest.lanes.count) lane job(s) and \(GitHubWorkflow.summaryJobID)"
    console.out(changed ? "duet workflow github: wrote \(output) (\(jobs))" : "duet workflow github: \(output) is already up to date (\(jobs))")
    return ExitCode.pass
  }

  static func outputFlag(_ output: String) -> String {
    output == GitHubWorkflow.defaultPath ? "" : " --output \(output)"
  }
}
