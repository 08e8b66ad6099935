import Foundation

/// Runs a short command to completion and returns its output: for `git`
/// queries, outside the scheduler, through `ChildRun` with a deadline, so a git
/// waiting on a lock or a credential prompt cannot hang a verify.
public enum ProcessOutput {
  /// A git query still running after this long is stopped.
  public static let deadline: Double = 60
  /// The most output kept from one query.
  public static let keptBytes = 64 * 1024 * 1024

  /// Nil when it cannot start, exits non-zero or runs past `deadline`.
  public static func shell(_ command: String, in directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment,
                           deadline: Double = deadline, onBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil) -> Data? {
    let result = ChildRun.captureShell(command, directory: directory.path, environment: environment,
                                       limits: .init(timeout: deadline, killGrace: 1), keep: onBytes == nil ? keptBytes : 0, onBytes: onBytes)
    return result.end.succeeded ? Data(result.output) : nil
  }

  /// `git ARGUMENTS` in `directory` (stderr dropped): its output as one trimmed
  /// line, or nil when git fails. Arguments are shell text; quote what comes from outside.
  public static func git(_ arguments: String, in directory: URL) -> String? {
    shell("git \(arguments) 2>/dev/null", in: directory).map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
  }

  /// `HEAD`, then the branches, remote branches and tags of the repository
  /// holding `directory`, by their short names; none where git fails.
  public static func gitRefs(in directory: URL) -> [String] {
    guard let text = git("for-each-ref --format='%(refname:short)' refs/heads refs/remotes refs/tags", in: directory) else { return [] }
    return ["HEAD"] + text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasSuffix("/HEAD") }
  }

  /// Whether `name` (a SHA, a branch, a ref) names a commit of the repository holding `directory`.
  public static func isCommit(_ name: String, in directory: URL) -> Bool {
    !name.isEmpty && !name.hasPrefix("-") && git("rev-parse --verify --quiet \(ShellWord.quoted(name + "^{commit}"))", in: directory) != nil
  }
}

/// The tree's git state: the HEAD commit and a digest of every uncommitted change.
public struct GitState: Sendable, Equatable {
  public var commit: String
  /// SHA-256 over `git diff HEAD` and the untracked files' names and contents.
  public var changes: String

  /// Nil where the tree is not a git work tree or git is missing.
  public static func read(root: URL) -> GitState? {
    guard let commit = ProcessOutput.git("rev-parse HEAD", in: root), !commit.isEmpty else { return nil }
    // The diff is hashed as it streams, never held whole.
    let diff = Locked(Digest())
    let diffRead = ProcessOutput.shell("git diff HEAD --binary 2>/dev/null", in: root) { bytes in diff.withLock { $0.update(bytes) } } != nil
    var digest = Digest()
    digest.update(diffRead ? "diff:\(diff.withLock { $0.finishAndReset() })\n" : "diff: unreadable\n")
    let untracked = ProcessOutput.shell("git ls-files --others --exclude-standard -z 2>/dev/null", in: root) ?? Data()
    for name in untracked.split(separator: 0).map({ String(decoding: $0, as: UTF8.self) }).sorted() {
      digest.update("untracked:\(name)\n")
      try? digest.update(fileAt: root.appendingPathComponent(name).path)
    }
    return GitState(commit: commit, changes: digest.hex())
  }
}
