import DuetAdopt
import DuetHooks
import DuetSupport
import Foundation

/// `duet hook install`: a git hook that runs duet verify on what is pushed (or committed).
struct HookInstallRequest: Sendable {
  var root: URL
  /// `--pre-commit`; otherwise the pre-push hook.
  var preCommit = false
  /// The duet the hook calls when it lives in the repository's own hooks folder.
  var duetPath: String
  /// `--force`: replace a hook duet did not write (kept as `<hook>.duet-backup`).
  var force = false
  /// `--hooks-folder DIR`: where git runs this repository's hooks from, outside it.
  var hooksFolder: String?
  /// The invocation's environment: git is found on its PATH and reads its variables.
  var environment: [String: String]
  init(root: URL, duetPath: String, environment: [String: String]) {
    self.root = root
    self.duetPath = duetPath
    self.environment = environment
  }
}

enum HookInstallResponse: CommandResponse {
  /// With a warning when the hook would stop every push or commit (a manifest not in git).
  case installed(GitHook.Installed, preCommit: Bool, duetPath: String, warning: String? = nil)
  /// A hook duet did not write is in the way, or git has no hooks folder for it (exit 1).
  case refused(String)

  var exitCode: Int32 {
    if case .refused = self { return ExitCode.failed }
    return ExitCode.pass
  }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    switch self {
    case .refused(let message):
      printout.err("duet hook: error: \(message)")
    case .installed(let installed, let preCommit, let duet, let warning):
      switch installed {
      case .written(let path, let placement):
        printout.out("duet hook: wrote \(path); it runs \(placement == .gitFolder ? duet : "the duet on PATH")")
      case .replaced(let path, let backup, let placement):
        printout.out("duet hook: moved the hook that was there to \(backup) and wrote \(path); it runs \(placement == .gitFolder ? duet : "the duet on PATH")")
      }
      printout.out(preCommit
        ? "each git commit now runs duet verify on the lanes the change since HEAD touches; git commit --no-verify skips it once"
        : "each git push now runs duet verify on the lanes the pushed change touches; git push --no-verify skips it once")
      if let warning { printout.err("duet hook: warning: \(warning)") }
    }
    return printout
  }
}

func hookInstall(_ request: HookInstallRequest) -> HookInstallResponse {
  do {
    let installed = try GitHook.install(request.preCommit ? .preCommit : .prePush, root: request.root, duetPath: request.duetPath,
                                        force: request.force, namedFolder: request.hooksFolder, environment: request.environment)
    let warning = ManifestInGit.installWarning(root: request.root, kind: request.preCommit ? .preCommit : .prePush,
                                               environment: request.environment)
    return .installed(installed, preCommit: request.preCommit, duetPath: request.duetPath, warning: warning)
  } catch {
    return .refused(error.message)
  }
}

/// `duet hook uninstall`: what was removed, one line each (none: nothing was installed).
struct HookUninstallResponse: CommandResponse {
  var removed: [String]
  var exitCode: Int32 { ExitCode.pass }
  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if removed.isEmpty { printout.out("duet hook: no hook installed; nothing to remove") }
    for line in removed { printout.out("duet hook: \(line)") }
    return printout
  }
}

/// Throws `CommandFailure` (exit 2) when there is no git repository to remove from.
func hookUninstall(root: URL, environment: [String: String]) throws(CommandFailure) -> HookUninstallResponse {
  do {
    return HookUninstallResponse(removed: try GitHook.uninstall(root: root, environment: environment))
  } catch {
    throw CommandFailure(message: "duet hook: error: \(error.message)", code: ExitCode.usage)
  }
}
