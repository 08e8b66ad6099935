import Foundation
import DuetModel
import DuetProcess
import DuetSupport

/// The git hooks duet writes: found where git looks (`core.hooksPath`,
/// worktrees and submodules through `git rev-parse --git-path hooks`), never
/// put over a hook duet did not write unless forced, and then the old one is
/// kept beside it, not lost.
package enum GitHook {
  package enum Kind: String, Sendable, CaseIterable {
    case prePush = "pre-push"
    case preCommit = "pre-commit"
  }

  /// The line that marks a hook as duet's own.
  static let marker: ShellText = "# duet-hook v1"

  package struct Failure: Error, CustomStringConvertible, Sendable {
    package var message: String
    package var description: String { message }
  }

  /// What install did, and where the hook is (which says what duet it runs).
  package enum Installed: Sendable, Equatable {
    case written(String, placement: Placement)
    /// A foreign hook was moved to `backup` (`--force`).
    case replaced(String, backup: String, placement: Placement)
  }

  /// Where git runs hooks for the work tree holding `root`.
  static func hooksFolder(root: URL, environment: [String: String]) throws(Failure) -> URL {
    guard let text = ProcessOutput.git(["rev-parse", "--path-format=absolute", "--git-path", "hooks"], in: root, environment: environment) ?? ProcessOutput.git(["rev-parse", "--git-path", "hooks"], in: root, environment: environment) else {
      throw Failure(message: "\(root.path) is not inside a git repository; hooks need one (git init)")
    }
    return URL(fileURLWithPath: text, relativeTo: root).standardizedFileURL
  }

  /// The tree root relative to the repository's top, so the hook finds the
  /// tree wherever the clone lives (`.` when the root is the top).
  static func rootFromTop(root: URL, environment: [String: String]) throws(Failure) -> String {
    guard let prefix = ProcessOutput.git(["rev-parse", "--show-prefix"], in: root, environment: environment) else {
      throw Failure(message: "\(root.path) is not inside a git work tree")
    }
    return folder(fromPrefix: prefix)
  }

  /// `git rev-parse --show-prefix`'s line as a folder below the top: `.` for the top itself.
  static func folder(fromPrefix prefix: String) -> String {
    prefix.isEmpty ? "." : String(prefix.hasSuffix("/") ? prefix.dropLast() : prefix[...])
  }

  /// Where a hooks folder is, which decides what a hook in it may say.
  package enum Placement: Sendable, Equatable {
    /// In the repository's git folder (`.git/hooks`): this clone's alone, so the
    /// hook records duet's path on this machine.
    case gitFolder
    /// In the work tree (a tracked `core.hooksPath` such as `.githooks`): shared
    /// through the repository, so the hook finds duet by name on `PATH`.
    case workTree
    /// Outside the repository (a global `core.hooksPath`): other repositories
    /// run it too, so it finds duet by name and does nothing without a manifest.
    case outside
  }

  /// The hook's text. In `.gitFolder` it runs duet at the path recorded now (a
  /// GUI git client may run hooks with a bare `PATH`), else the `duet` on
  /// `PATH`; elsewhere only the `duet` on `PATH`. A hook that `--force` moved
  /// aside (`<hook>.duet-backup`) still runs first, with the same arguments and
  /// input, and its failure stops git as before. Placed `.outside`, it then does
  /// nothing in a repository without duet's manifest. It is built as
  /// `ShellText`, so every word from outside (duet's path, the root) goes in as
  /// one quoted shell word (`ShellWord`); the text is made a String only here.
  static func script(_ kind: Kind, duetPath: String, rootFromTop: String, placement: Placement = .gitFolder) -> String {
    let findDuet: ShellText = placement == .gitFolder
      ? """
        duet=\(duetPath)
        [ -x "$duet" ] || duet=$(command -v duet) || {
          printf 'duet hook: duet is neither at %s nor on PATH; reinstall it and run duet hook install\\n' \(duetPath) >&2
          exit 1
        }
        """
      : """
        duet=$(command -v duet) || {
          echo "duet hook: duet is not on PATH; install it, or skip this hook once with --no-verify" >&2
          exit 1
        }
        """
    let manifestGuard: ShellText = placement == .outside
      ? "[ -f \"$top\"/\(rootFromTop)/\(Manifest.defaultPath) ] || [ -f \"$top\"/\(rootFromTop)/\(ParityManifest.defaultPath) ] || exit 0\n"
      : ""
    let what: ShellText = kind == .prePush ? "pushed" : "committed"
    let script: ShellText = """
      #!/bin/sh
      \(marker): written by `duet hook install`; `duet hook uninstall` removes it.
      # Verifies what is being \(what) with duet; skip it once with --no-verify.
      top=$(git rev-parse --show-toplevel) || exit 1
      input=$(cat)
      if [ -x "$0.duet-backup" ]; then
        printf '%s\\n' "$input" | "$0.duet-backup" "$@" || exit $?
      fi
      \(manifestGuard)\(findDuet)
      printf '%s\\n' "$input" | "$duet" hook run \(kind.rawValue) --root "$top"/\(rootFromTop) "$@"

      """
    return script.text
  }

  /// Writes the hook. The tree must have a manifest (a hook without one would
  /// stop every push). A hooks folder outside the repository is refused unless
  /// `namedFolder` names it. Anything already at the hook's path that duet did
  /// not write (any bytes, a link, dangling or not) is an error unless `force`,
  /// and is then renamed, exactly as it is, to `<hook>.duet-backup`.
  package static func install(_ kind: Kind, root: URL, duetPath: String, force: Bool, namedFolder: String? = nil,
                             environment: [String: String]) throws(Failure) -> Installed {
    try requireManifest(root: root)
    let folder = try hooksFolder(root: root, environment: environment)
    let placement = try self.placement(of: folder, root: root, named: namedFolder, environment: environment)
    let hook = folder.appendingPathComponent(kind.rawValue)
    let text = script(kind, duetPath: duetPath, rootFromTop: try rootFromTop(root: root, environment: environment), placement: placement)
    var result = Installed.written(hook.path, placement: placement)
    if case .foreign(let what) = HookFile.existing(hook.path) {
      guard force else {
        throw Failure(message: "\(hook.path) is a \(kind.rawValue) hook duet did not write (\(what)); keep it, or pass --force to move it to \(hook.lastPathComponent).duet-backup and install duet's")
      }
      let backup = hook.path + ".duet-backup"
      guard !HookFile.exists(backup) else {
        throw Failure(message: "\(backup) already holds a hook duet moved aside; keep one of them: move or delete \(backup) or \(hook.path), then run duet hook install again")
      }
      guard rename(hook.path, backup) == 0 else {
        throw Failure(message: "cannot move \(hook.path) aside to \(backup): \(String(cString: strerror(errno)))")
      }
      result = .replaced(hook.path, backup: backup, placement: placement)
    }
    do {
      try AtomicFile.write(Data(text.utf8), toAbsolute: hook.path)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
    } catch {
      throw Failure(message: "cannot write \(hook.path): \(error)")
    }
    return result
  }

  /// Refuses a root with neither `lanes/manifest.yaml` nor `parity/manifest.yaml`.
  static func requireManifest(root: URL) throws(Failure) {
    let found = [Manifest.defaultPath, ParityManifest.defaultPath].contains {
      FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
    }
    guard found else {
      throw Failure(message: "\(root.path) has no \(Manifest.defaultPath) (nor \(ParityManifest.defaultPath)); a hook there would stop every push. Run duet init there first, or pass --root with the folder that holds the manifest")
    }
  }

  /// Where `folder` lies: in the git folder, in the work tree, or outside the
  /// repository, which is refused unless `named` is that folder.
  static func placement(of folder: URL, root: URL, named: String?, environment: [String: String]) throws(Failure) -> Placement {
    let real = folder.resolvingSymlinksInPath().path
    func inside(_ base: String?) -> Bool {
      guard let base else { return false }
      let resolved = URL(fileURLWithPath: base, relativeTo: root).resolvingSymlinksInPath().path
      return real == resolved || real.hasPrefix(resolved.hasSuffix("/") ? resolved : resolved + "/")
    }
    // Relative answers (a git before 2.31) are relative to `root`, as `inside` reads them.
    for flag in ["--git-common-dir", "--git-dir"] {
      if inside(ProcessOutput.git(["rev-parse", "--path-format=absolute", flag], in: root, environment: environment) ?? ProcessOutput.git(["rev-parse", flag], in: root, environment: environment)) {
        return .gitFolder
      }
    }
    if inside(ProcessOutput.git(["rev-parse", "--show-toplevel"], in: root, environment: environment)) { return .workTree }
    guard let named, URL(fileURLWithPath: named, relativeTo: root).resolvingSymlinksInPath().path == real else {
      throw Failure(message: "git runs this repository's hooks from \(real) (core.hooksPath), outside the repository: every repository that uses that folder would run duet's hook. Install there only by naming it: duet hook install --hooks-folder \(ShellWord.quoted(real))")
    }
    return .outside
  }

  /// Removes duet's hooks, putting back, exactly as it was, a hook `--force`
  /// moved aside; leaves foreign hooks alone. One line per hook looked at.
  package static func uninstall(root: URL, environment: [String: String]) throws(Failure) -> [String] {
    let folder = try hooksFolder(root: root, environment: environment)
    var lines: [String] = []
    for kind in Kind.allCases {
      let hook = folder.appendingPathComponent(kind.rawValue)
      switch HookFile.existing(hook.path) {
      case .none: continue
      case .foreign:
        lines.append("\(hook.path): not duet's; left alone")
        continue
      case .duets: break
      }
      guard unlink(hook.path) == 0 else {
        throw Failure(message: "cannot remove \(hook.path): \(String(cString: strerror(errno)))")
      }
      let backup = hook.path + ".duet-backup"
      if HookFile.exists(backup) {
        guard rename(backup, hook.path) == 0 else {
          throw Failure(message: "removed duet's \(hook.path), but cannot put back \(backup): \(String(cString: strerror(errno)))")
        }
        lines.append("\(hook.path): removed duet's hook and put back the one it had replaced")
      } else {
        lines.append("\(hook.path): removed")
      }
    }
    return lines
  }
}

/// What is at a hook's path, looked at without following a link.
enum HookFile {
  enum Existing: Equatable {
    case none
    /// A regular file holding duet's marker.
    case duets
    /// Anything else, described for the refusal: a terminal line, as what it
    /// quotes (a link's target, the file's first lines) is the tree's text.
    case foreign(TerminalLine)
  }

  /// Whether anything (a dangling link too) is at `path`.
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  static func existing(_ path: String) -> Existing {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .none }
    switch info.st_mode & S_IFMT {
    case S_IFLNK:
      let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
      return .foreign("it is a symbolic link to \(target)\(exists(URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(target).path) ? "" : ", which does not exist")")
    case S_IFREG:
      let bytes = FileManager.default.contents(atPath: path) ?? Data()
      if bytes.range(of: Data(GitHook.marker.text.utf8)) != nil { return .duets }
      let head = String(decoding: bytes.prefix(240), as: UTF8.self).split(separator: "\n").prefix(3).joined(separator: " | ")
      return .foreign("it begins: \(head)")
    default:
      return .foreign("it is \(PathGuard.kindName(info.st_mode)), not a file duet wrote")
    }
  }
}
