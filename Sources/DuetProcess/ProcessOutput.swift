import Foundation
import DuetSupport

/// Runs a short `git` query to completion and returns its output, outside the
/// run loop, through `ChildRun` with a deadline, so a git waiting on a lock or a
/// credential prompt cannot hang a verify. Git gets its arguments as argv (no
/// shell reads them, so nothing needs quoting) and its stderr goes to /dev/null.
package enum ProcessOutput {
  /// A git query still running after this long is stopped.
  static let deadline: Double = 60
  /// The most output kept from one query.
  static let keptBytes = 64 * 1024 * 1024

  /// `git ARGUMENTS` in `directory`, found on the environment's PATH: its
  /// output, or nil when it cannot start, exits non-zero or runs past `deadline`.
  /// With `onBytes`, every byte goes there and none is kept.
  package static func gitOutput(_ arguments: [String], in directory: URL, environment: [String: String],
                               deadline: Double = deadline, onBytes: ((UnsafeRawBufferPointer) -> Void)? = nil) -> Data? {
    gitReply(arguments, in: directory, environment: environment, deadline: deadline, onBytes: onBytes).output
  }

  /// `gitOutput`, saying why there is none when the machine kept git from
  /// starting (no descriptor, process or memory): a caller that would say "not
  /// in a git repository" says that instead, and exits as a machine error.
  package static func gitReply(_ arguments: [String], in directory: URL, environment: [String: String],
                              deadline: Double = deadline, onBytes: ((UnsafeRawBufferPointer) -> Void)? = nil) -> GitReply {
    let spec = gitSpec(arguments, in: directory, environment: environment)
    let result = ChildRun.capture(spec, limits: .init(timeout: deadline, killGrace: 1), keep: onBytes == nil ? keptBytes : 0, onBytes: onBytes)
    if result.end.succeeded { return .output(Data(result.output)) }
    if result.end.outOfResources { return .machineShort(result.end.spawnError ?? "no resources") }
    return .failed
  }

  /// How git is started: found on the environment's PATH by `env` (`execvp`:
  /// a wrapper script without `#!` runs, a relative PATH entry counts), its
  /// arguments as argv, stderr dropped.
  package static func gitSpec(_ arguments: [String], in directory: URL, environment: [String: String]) -> SpawnSpec {
    SpawnSpec(path: "/usr/bin/env", arguments: ["env", "git"] + arguments, directory: directory.path,
              environment: environment, discardErrors: true)
  }

  /// `git ARGUMENTS` in `directory`: its output as one trimmed line, or nil when git fails.
  package static func git(_ arguments: [String], in directory: URL, environment: [String: String]) -> String? {
    gitReply(arguments, in: directory, environment: environment).line
  }

  /// `HEAD`, then the branches, remote branches and tags of the repository
  /// holding `directory`, by their short names; none where git fails.
  package static func gitRefs(in directory: URL, environment: [String: String]) -> [String] {
    guard let text = git(["for-each-ref", "--format=%(refname:short)", "refs/heads", "refs/remotes", "refs/tags"], in: directory, environment: environment) else { return [] }
    return ["HEAD"] + text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasSuffix("/HEAD") }
  }

  /// Whether `name` (a SHA, a branch, a ref) names a commit of the repository holding `directory`.
  package static func isCommit(_ name: String, in directory: URL, environment: [String: String]) -> Bool {
    !name.isEmpty && !name.hasPrefix("-") && git(["rev-parse", "--verify", "--quiet", name + "^{commit}"], in: directory, environment: environment) != nil
  }

  /// The variables by which git finds a repository and its index. A hook
  /// runs with them set for the repository it was called from; git in another
  /// worktree must not see them.
  static let repositoryVariables = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR",
                                           "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"]

  /// `environment` without `repositoryVariables`.
  package static func outsideRepository(_ environment: [String: String]) -> [String: String] {
    environment.filter { !repositoryVariables.contains($0.key) }
  }
}

/// The tree's git state: the HEAD commit and a digest of every uncommitted change.
package struct GitState: Sendable, Equatable {
  package var commit: String
  /// SHA-256 over `git diff HEAD` and the untracked files' names and contents.
  package var changes: String

  /// Nil where the tree is not a git work tree or git is missing.
  static func read(root: URL, environment: [String: String]) -> GitState? {
    guard let commit = ProcessOutput.git(["rev-parse", "HEAD"], in: root, environment: environment), !commit.isEmpty else { return nil }
    // The diff is hashed as it streams, never held whole.
    var diff = Digest()
    let diffRead = ProcessOutput.gitOutput(["diff", "HEAD", "--binary"], in: root, environment: environment) { diff.update($0) } != nil
    var digest = Digest()
    digest.update(diffRead ? "diff:\(diff.finishAndReset())\n" : "diff: unreadable\n")
    let untracked = ProcessOutput.gitOutput(["ls-files", "--others", "--exclude-standard", "-z"], in: root, environment: environment) ?? Data()
    for name in untracked.split(separator: 0).map({ String(decoding: $0, as: UTF8.self) }).sorted() {
      digest.update("untracked:\(name)\n")
      try? digest.update(fileAt: root.appendingPathComponent(name).path)
    }
    return GitState(commit: commit, changes: digest.hex())
  }
}
