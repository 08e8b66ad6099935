import Foundation
import DuetProcess
import DuetSupport

/// What a pre-commit hook must verify: the commit being made, which is HEAD
/// plus the index, not the work tree. When the work tree holds anything else
/// (edits not staged, untracked files), HEAD is checked out into a temporary
/// worktree, as the pre-push hook does for a pushed commit, and the staged
/// changes are applied to it; the change since HEAD is then exactly what the
/// commit adds. A staged failing edit with an unstaged fix on top fails.
package enum StagedCommit {
  /// Nil when the work tree is exactly HEAD plus the index; otherwise what else it holds.
  package static func difference(root: URL, environment: [String: String]) -> String? {
    guard let unstaged = ProcessOutput.gitOutput(["diff", "--name-only", "-z"], in: root, environment: environment),
          let untracked = ProcessOutput.gitOutput(["ls-files", "--others", "--exclude-standard", "-z"], in: root, environment: environment) else {
      return "git cannot say what is staged"
    }
    if !unstaged.isEmpty { return "some changes are not staged" }
    if !untracked.isEmpty { return "some files are untracked" }
    return nil
  }

  /// HEAD with the index applied, in a new temporary worktree; returns its
  /// top and the folder there that corresponds to `root`.
  package static func checkOut(root: URL, environment: [String: String]) throws(PushedCommit.Failure) -> (top: URL, root: URL) {
    // The index being committed is the hook's (`GIT_INDEX_FILE`, a temporary
    // one for `git commit FILE`); the new worktree is found without it.
    let outside = ProcessOutput.outsideRepository(environment)
    let made = try PushedCommit.checkOut("HEAD", root: root, environment: outside)
    guard let patch = ProcessOutput.gitOutput(["diff", "--cached", "--binary", "--full-index", "HEAD"], in: root, environment: environment) else {
      PushedCommit.remove(made.top, root: root, environment: outside)
      throw PushedCommit.Failure(message: "cannot read the staged changes (git diff --cached)")
    }
    guard !patch.isEmpty else { return made }
    let file = made.top.deletingLastPathComponent().appendingPathComponent("duet-staged-\(UUID().uuidString).patch")
    defer { try? FileManager.default.removeItem(at: file) }
    do { try AtomicFile.write(patch, toAbsolute: file.path) } catch {
      PushedCommit.remove(made.top, root: root, environment: outside)
      throw PushedCommit.Failure(message: "cannot write the staged changes to \(file.path): \(error)")
    }
    guard ProcessOutput.gitOutput(["apply", "--index", "--binary", file.path], in: made.top, environment: outside) != nil else {
      PushedCommit.remove(made.top, root: root, environment: outside)
      throw PushedCommit.Failure(message: "cannot apply the staged changes to a temporary checkout of HEAD (git apply --index)")
    }
    return made
  }
}
