import Foundation
import DuetRun
import DuetTokens
import DuetModel
import DuetSupport

/// The git hooks duet writes: found where git looks (`core.hooksPath`,
/// worktrees and submodules through `git rev-parse --git-path hooks`), never
/// put over a hook duet did not write unless forced, and then the old one is
/// kept beside it, not lost.
public enum GitHook {
  public enum Kind: String, Sendable, CaseIterable {
    case prePush = "pre-push"
    case preCommit = "pre-commit"
  }

  /// The line that marks a hook as duet's own.
  public static let marker = "# duet-hook v1"

  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
  }

  public enum Installed: Sendable, Equatable {
    case written(String)
    /// A foreign hook was moved to `backup` (`--force`).
    case replaced(String, backup: String)
  }

  /// Where git runs hooks for the work tree holding `root`.
  public static func hooksFolder(root: URL) throws(Failure) -> URL {
    guard let text = ProcessOutput.git("rev-parse --path-format=absolute --git-path hooks", in: root) ?? ProcessOutput.git("rev-parse --git-path hooks", in: root) else {
      throw Failure(message: "\(root.path) is not inside a git repository; hooks need one (git init)")
    }
    return URL(fileURLWithPath: text, relativeTo: root).standardizedFileURL
  }

  /// The tree root relative to the repository's top, so the hook finds the
  /// tree wherever the clone lives (`.` when the root is the top).
  public static func rootFromTop(root: URL) throws(Failure) -> String {
    guard let prefix = ProcessOutput.git("rev-parse --show-prefix", in: root) else {
      throw Failure(message: "\(root.path) is not inside a git work tree")
    }
    return prefix.isEmpty ? "." : String(prefix.hasSuffix("/") ? prefix.dropLast() : prefix[...])
  }

  /// The hook's text: it runs duet at the path recorded now (a GUI git client
  /// may run hooks with a bare `PATH`), else the `duet` on `PATH`. A hook that
  /// `--force` moved aside (`<hook>.duet-backup`) still runs first, with the same
  /// arguments and input, and its failure stops git as before.
  public static func script(_ kind: Kind, duetPath: String, rootFromTop: String) -> String {
    let quotedDuet = ShellWord.quoted(duetPath)
    let quotedRoot = ShellWord.quoted(rootFromTop)
    return """
      #!/bin/sh
      \(marker): written by `duet hook install`; `duet hook uninstall` removes it.
      # Verifies what is being \(kind == .prePush ? "pushed" : "committed") with duet; skip it once with --no-verify.
      duet=\(quotedDuet)
      [ -x "$duet" ] || duet=$(command -v duet) || {
        echo "duet hook: duet is neither at \(duetPath) nor on PATH; reinstall it and run duet hook install" >&2
        exit 1
      }
      top=$(git rev-parse --show-toplevel) || exit 1
      input=$(cat)
      if [ -x "$0.duet-backup" ]; then
        printf '%s\n' "$input" | "$0.duet-backup" "$@" || exit $?
      fi
      printf '%s\n' "$input" | "$duet" hook run \(kind.rawValue) --root "$top"/\(quotedRoot) "$@"

      """
  }

  /// Writes the hook; a hook duet did not write is an error unless `force`.
  public static func install(_ kind: Kind, root: URL, duetPath: String, force: Bool) throws(Failure) -> Installed {
    let folder = try hooksFolder(root: root)
    let hook = folder.appendingPathComponent(kind.rawValue)
    let text = script(kind, duetPath: duetPath, rootFromTop: try rootFromTop(root: root))
    var result = Installed.written(hook.path)
    if let existing = try? String(contentsOf: hook, encoding: .utf8), !existing.contains(marker) {
      guard force else {
        let first = existing.split(separator: "\n").prefix(3).joined(separator: " | ")
        throw Failure(message: "\(hook.path) is a \(kind.rawValue) hook duet did not write (it begins: \(first)); keep it, or pass --force to move it to \(hook.lastPathComponent).duet-backup and install duet's")
      }
      let backup = hook.path + ".duet-backup"
      guard !FileManager.default.fileExists(atPath: backup) else {
        throw Failure(message: "\(backup) already holds a hook duet moved aside; keep one of them: move or delete \(backup) or \(hook.path), then run duet hook install again")
      }
      do {
        try FileManager.default.moveItem(atPath: hook.path, toPath: backup)
      } catch {
        throw Failure(message: "cannot move \(hook.path) aside to \(backup): \(error.localizedDescription)")
      }
      result = .replaced(hook.path, backup: backup)
    } else if FileManager.default.fileExists(atPath: hook.path), (try? String(contentsOf: hook, encoding: .utf8)) == nil {
      guard force else { throw Failure(message: "\(hook.path) exists and is not a text file; pass --force to replace it") }
    }
    do {
      try AtomicFile.write(Data(text.utf8), toAbsolute: hook.path)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
    } catch {
      throw Failure(message: "cannot write \(hook.path): \(error)")
    }
    return result
  }

  /// Removes duet's hooks (restoring a hook `--force` moved aside); leaves
  /// foreign hooks alone. One line per hook looked at.
  public static func uninstall(root: URL) throws(Failure) -> [String] {
    let folder = try hooksFolder(root: root)
    var lines: [String] = []
    for kind in Kind.allCases {
      let hook = folder.appendingPathComponent(kind.rawValue)
      guard let text = try? String(contentsOf: hook, encoding: .utf8) else { continue }
      guard text.contains(marker) else {
        lines.append("\(hook.path): not duet's; left alone")
        continue
      }
      do {
        try FileManager.default.removeItem(at: hook)
        let backup = hook.path + ".duet-backup"
        if FileManager.default.fileExists(atPath: backup) {
          try FileManager.default.moveItem(atPath: backup, toPath: hook.path)
          lines.append("\(hook.path): removed duet's hook and put back the one it had replaced")
        } else {
          lines.append("\(hook.path): removed")
        }
      } catch {
        throw Failure(message: "cannot remove \(hook.path): \(error.localizedDescription)")
      }
    }
    return lines
  }
}
