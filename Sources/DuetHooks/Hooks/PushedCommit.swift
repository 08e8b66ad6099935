import Foundation
import DuetProcess
import DuetSupport
import DuetHistory

/// The commit a pre-push hook must verify, which need not be the work tree:
/// uncommitted edits, untracked files or another checked-out commit would make
/// the verdict about something other than what is pushed. Then the commit is
/// checked out into a temporary worktree (`git worktree add --detach`) and
/// verified there, with the tree's own history store, so passes cached from the
/// work tree still count (fingerprints do not depend on where a tree lives).
package enum PushedCommit {
  package struct Failure: Error, CustomStringConvertible, Sendable {
    package var message: String
    /// The machine, not the tree, was short (git could not start): exit 3, not 2.
    package var machineShort = false
    package var description: String { message }
  }

  /// Nil when the work tree holding `root` is exactly `commit` (HEAD is it and
  /// nothing is modified, staged or untracked); otherwise what differs.
  package static func difference(from commit: String, root: URL, environment: [String: String]) -> String? {
    let head = ProcessOutput.git(["rev-parse", "HEAD"], in: root, environment: environment)
    if head != commit { return "the work tree is at \(head.map { String($0.prefix(12)) } ?? "no commit"), not \(commit.prefix(12))" }
    guard let status = ProcessOutput.gitOutput(["status", "--porcelain", "-z", "--untracked-files=normal"], in: root, environment: environment) else {
      return "git status failed"
    }
    return status.isEmpty ? nil : "the work tree has uncommitted or untracked changes"
  }

  /// Checks `commit` out into a new temporary folder; returns the folder that
  /// corresponds to `root` there (the same path below the repository's top).
  package static func checkOut(_ commit: String, root: URL, environment: [String: String]) throws(Failure) -> (top: URL, root: URL) {
    // Never guessed: the worktree's top in its place would verify another folder's lanes.
    let prefixReply = ProcessOutput.gitReply(["rev-parse", "--show-prefix"], in: root, environment: environment)
    guard let line = prefixReply.line else {
      if case .machineShort(let why) = prefixReply {
        throw Failure(message: "cannot ask git where \(root.path) is below the repository's top: \(why)", machineShort: true)
      }
      throw Failure(message: "cannot tell where \(root.path) is below the repository's top (git rev-parse --show-prefix failed)")
    }
    let prefix = GitHook.folder(fromPrefix: line)
    let top = FileManager.default.temporaryDirectory.appendingPathComponent("duet-push-\(UUID().uuidString)")
    let arguments = ["worktree", "add", "--detach", "--quiet", top.path, commit]
    let reply = ProcessOutput.gitReply(arguments, in: root, environment: environment, deadline: 300)
    guard reply.output != nil else {
      let command = (["git"] + arguments).map(ShellWord.quoted).joined(separator: " ")
      remove(top, root: root, environment: environment)
      if case .machineShort(let why) = reply {
        throw Failure(message: "cannot check out \(commit.prefix(12)) into a temporary worktree: \(why)", machineShort: true)
      }
      throw Failure(message: "cannot check out \(commit.prefix(12)) into a temporary worktree (\(command))")
    }
    return (top, prefix == "." ? top : top.appendingPathComponent(prefix))
  }

  /// Moves the run log folders (`.duet/logs/<run id>`) a verify wrote in the
  /// temporary checkout at `checkoutRoot` into the tree's own `.duet/logs`, where
  /// the history rows (recorded in the tree's store) find them; before, they
  /// went with the checkout. Returns why they could not be kept, or nil.
  package static func keepLogs(from checkoutRoot: URL, into root: URL) -> String? {
    let source = checkoutRoot.appendingPathComponent(LogLocation.logsFolder)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: source.path) else { return nil }
    let target = root.appendingPathComponent(LogLocation.logsFolder)
    do {
      try PathGuard.checkStateFolder(root: root)
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      try PathGuard.checkStateFolder(root: root)
      for name in names.sorted() where LogLocation.isRunID(name) {
        let destination = target.appendingPathComponent(name)
        var info = stat()
        guard lstat(destination.path, &info) != 0 else { continue }
        try FileManager.default.moveItem(at: source.appendingPathComponent(name), to: destination)
      }
    } catch {
      return "the logs of the hook's run could not be kept in \(LogLocation.logsFolder): \(error)"
    }
    return nil
  }

  /// Removes a temporary worktree made by `checkOut`.
  package static func remove(_ top: URL, root: URL, environment: [String: String]) {
    let outside = ProcessOutput.outsideRepository(environment)
    _ = ProcessOutput.gitOutput(["worktree", "remove", "--force", top.path], in: root, environment: outside)
    try? FileManager.default.removeItem(at: top)
    _ = ProcessOutput.gitOutput(["worktree", "prune"], in: root, environment: outside)
  }
}
