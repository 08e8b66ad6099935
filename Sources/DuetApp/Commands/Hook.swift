import Foundation
import DuetCommandLine
import DuetSupport

/// `duet hook install|uninstall`: a git hook that runs `duet verify` on what is
/// being pushed (or committed). `duet hook run KIND` is what the hook calls.
enum HookCommand: TreeCommand {
  static let prePush = Option<Self, Bool>.flag(
    OptionSpec(name: "--pre-push", value: nil, help: "install the pre-push hook (the default): verify the change being pushed"))
  static let preCommit = Option<Self, Bool>.flag(
    OptionSpec(name: "--pre-commit", value: nil, help: "install a pre-commit hook: verify the change since HEAD"))
  static let force = Option<Self, Bool>.flag(
    OptionSpec(name: "--force", value: nil, help: "replace a hook duet did not write (it is kept, byte for byte, as <hook>.duet-backup)"))
  static let hooksFolder = Option<Self, String?>.text(
    OptionSpec(name: "--hooks-folder", value: "DIR", help: "install into DIR when git runs this repository's hooks from there and it is outside the repository (a global core.hooksPath)"))

  static let spec = CommandSpec(
    name: "hook",
    summary: "install a git pre-push (or pre-commit) hook that verifies what is being pushed",
    usage: "duet hook install [--pre-push|--pre-commit] [--force] [--hooks-folder DIR] | duet hook uninstall",
    options: [prePush.spec, preCommit.spec, force.spec, hooksFolder.spec, root.spec],
    details: "exit codes: 0 done, 1 a hook duet did not write is in the way (or, from the hook, verify failed), 2 a usage error or no git repository\nthe pre-push hook runs 'duet verify --since <the remote's commit>'; a new branch is verified since the remote's default branch; 'git push --no-verify' skips it once"
  )
  static let maxPositionals = 4

  /// `duet hook`'s command line: the subcommand with what it takes.
  struct Options {
    enum Action {
      case install(preCommit: Bool, force: Bool, hooksFolder: String?)
      case uninstall
      /// What the installed hook calls: its kind (`pre-push`) and, for a push, the remote.
      case run(kind: String, remote: String?)
    }
    var root: String?
    var action: Action
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    let words = line.positionals
    let action: Options.Action
    switch words.first {
    case "install":
      guard words.count == 1 else { throw UsageError(message: "unexpected argument '\(words[1])'", command: "hook") }
      if try line[prePush] && line[preCommit] {
        throw UsageError(message: "--pre-push and --pre-commit cannot be combined; install one, then the other", command: "hook")
      }
      action = .install(preCommit: try line[preCommit], force: try line[force], hooksFolder: try line[hooksFolder])
    case "uninstall": action = .uninstall
    case "run": action = .run(kind: words.count > 1 ? words[1] : "", remote: words.count > 2 ? words[2] : nil)
    case let other?:
      throw UsageError(message: "unknown subcommand '\(other)'\(Suggestion.hint(for: other, in: ["install", "uninstall"])) (hook takes install or uninstall)", command: "hook")
    case nil:
      throw UsageError(message: "hook needs a subcommand: install or uninstall", command: "hook")
    }
    return Options(root: try line[root], action: action)
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    let root = try call.treeRoot(options.root)
    switch options.action {
    case .install(let preCommit, let force, let hooksFolder):
      var request = HookInstallRequest(root: root, duetPath: call.invocation.executable.path, environment: call.environment)
      request.preCommit = preCommit
      request.force = force
      request.hooksFolder = hooksFolder
      return call.console.show(hookInstall(request))
    case .uninstall:
      return call.console.show(try hookUninstall(root: root, environment: call.environment))
    case .run(let kind, let remote):
      return try runHook(kind: kind, remote: remote, root: root, call: call)
    }
  }

  /// What the installed hook calls: DuetApp's `hookRun` decides the change and
  /// verifies it, printing as `duet verify` does.
  static func runHook(kind: String, remote: String?, root: URL, call: CommandCall) throws -> Int32 {
    let invocation = call.invocation
    let console = call.console
    var request = HookRunRequest(root: root, kind: kind, environment: invocation.environment, duetVersion: duetVersion)
    if let remote { request.remote = remote }
    if kind == "pre-push" { request.standardInput = invocation.readStandardInput() }
    request.commandLine = invocation.commandLine
    request.builtinIdentity = duetCodeIdentity(invocation, root: request.root)
    request.reapOrphans = invocation.ownsProcess
    return try VerifyCommand.usageOnFailure {
      let response = try hookRun(request, observer: VerifyCommand.observer(console: console, json: false),
                                 signals: VerifyCommand.signalGuard(invocation), say: console.show)
      return console.show(response)
    }
  }
}
