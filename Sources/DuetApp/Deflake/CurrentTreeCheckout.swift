import DuetHooks
import DuetProcess
import DuetSupport
import Foundation

/// A temporary `git worktree` holding what the work tree holds now, for
/// `deflake --jobs J` to run one lane in several places at once: HEAD with the
/// uncommitted changes to tracked files (`git stash create`, which writes a
/// commit and touches neither the index nor the work tree) and a copy of the
/// untracked files git does not ignore. Ignored files (build folders,
/// `node_modules`) are not copied: a lane that needs them runs cold there.
enum CurrentTreeCheckout {
  struct Failure: Error, CustomStringConvertible {
    var message: String
    /// The machine was short (git could not start), so the tree was not judged: exit 3.
    var machineShort = false
    var description: String { message }
  }

  /// The new worktree's top and the folder there that corresponds to `root`.
  /// Git takes the index lock here: one checkout at a time, never beside another.
  static func make(root: URL, environment: [String: String]) throws(CurrentTreeCheckout.Failure) -> (top: URL, root: URL) {
    let outside = ProcessOutput.outsideRepository(environment)
    let topReply = ProcessOutput.gitReply(["rev-parse", "--show-toplevel"], in: root, environment: outside)
    try machineShort(topReply, "cannot ask git where the repository's top is")
    guard let top = topReply.line, !top.isEmpty else {
      throw Failure(message: "\(root.path) is not in a git repository, so its runs cannot go into temporary worktrees; use --jobs 1 to run them here, one after another")
    }
    // Nil is a failure (another git holding the index lock), not a clean tree: HEAD would lack the edits.
    let stashReply = ProcessOutput.gitReply(["stash", "create"], in: root, environment: outside)
    try machineShort(stashReply, "cannot record the uncommitted changes for a temporary worktree")
    guard let stash = stashReply.line else {
      throw Failure(message: "cannot record the uncommitted changes for a temporary worktree (git stash create failed)")
    }
    let made: (top: URL, root: URL)
    do { made = try PushedCommit.checkOut(stash.isEmpty ? "HEAD" : stash, root: root, environment: outside) } catch {
      throw Failure(message: error.message, machineShort: error.machineShort)
    }
    do {
      try copyUntracked(from: URL(fileURLWithPath: top), to: made.top, root: root, environment: outside)
    } catch {
      PushedCommit.remove(made.top, root: root, environment: outside)
      throw error
    }
    return made
  }

  /// Throws when git could not start for want of the machine's resources.
  private static func machineShort(_ reply: GitReply, _ what: String) throws(CurrentTreeCheckout.Failure) {
    if case .machineShort(let why) = reply { throw Failure(message: "\(what): \(why)", machineShort: true) }
  }

  /// The untracked, unignored files below `root`, copied to the same place under `checkout`.
  private static func copyUntracked(from top: URL, to checkout: URL, root: URL, environment: [String: String]) throws(CurrentTreeCheckout.Failure) {
    let reply = ProcessOutput.gitReply(["ls-files", "--others", "--exclude-standard", "--full-name", "-z"], in: root, environment: environment)
    try machineShort(reply, "cannot list the untracked files")
    guard let listed = reply.output else {
      throw Failure(message: "cannot list the untracked files (git ls-files --others)")
    }
    let paths = listed.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    for path in paths where !path.isEmpty {
      let target = checkout.appendingPathComponent(path)
      do {
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: top.appendingPathComponent(path), to: target)
      } catch {
        throw Failure(message: "cannot copy the untracked file \(path) into a temporary worktree: \(error)")
      }
    }
  }
}
