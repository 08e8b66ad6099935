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

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    switch arguments.positionals.first {
    case "install": return try install(arguments, console: console)
    case "uninstall": return try uninstall(arguments, console: console)
    case "run": return try runHook(arguments, console: console)
    case let other?:
      throw UsageError(message: "unknown subcommand '\(other)'\(Suggestion.hint(for: other, in: ["install", "uninstall"])) (hook takes install or uninstall)", command: "hook")
    case nil:
      throw UsageError(message: "hook needs a subcommand: install or uninstall", command: "hook")
    }
  }

  static func install(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    guard arguments.positionals.count == 1 else { throw UsageError(message: "unexpected argument '\(arguments.positionals[1])'", command: "hook") }
    if try arguments[prePush] && arguments[preCommit] {
      throw UsageError(message: "--pre-push and --pre-commit cannot be combined; install one, then the other", command: "hook")
    }
    var request = HookInstallRequest(root: try treeRoot(arguments), duetPath: arguments.invocation.executable.path,
                                     environment: arguments.invocation.environment)
    request.preCommit = try arguments[preCommit]
    request.force = try arguments[force]
    request.hooksFolder = try arguments[hooksFolder]
    return console.show(hookInstall(request))
  }

  static func uninstall(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    console.show(try hookUninstall(root: try treeRoot(arguments), environment: arguments.invocation.environment))
  }

  /// What the installed hook calls: DuetApp's `hookRun` decides the change and
  /// verifies it, printing as `duet verify` does.
  static func runHook(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let kind = arguments.positionals.count > 1 ? arguments.positionals[1] : ""
    let invocation = arguments.invocation
    var request = HookRunRequest(root: try treeRoot(arguments), kind: kind, environment: invocation.environment, duetVersion: duetVersion)
    if arguments.positionals.count > 2 { request.remote = arguments.positionals[2] }
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
