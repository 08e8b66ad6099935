import Foundation
import DuetApp
import DuetHooks
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetProcess
import DuetSupport

/// `duet hook install|uninstall`: a git hook that runs `duet verify` on what is
/// being pushed (or committed). `duet hook run KIND` is what the hook calls.
enum HookCommand: Command {
  static let spec = CommandSpec(
    name: "hook",
    summary: "install a git pre-push (or pre-commit) hook that verifies what is being pushed",
    usage: "duet hook install [--pre-push|--pre-commit] [--force] [--hooks-folder DIR] | duet hook uninstall",
    options: [
      OptionSpec(name: "--pre-push", value: nil, help: "install the pre-push hook (the default): verify the change being pushed"),
      OptionSpec(name: "--pre-commit", value: nil, help: "install a pre-commit hook: verify the change since HEAD"),
      OptionSpec(name: "--force", value: nil, help: "replace a hook duet did not write (it is kept, byte for byte, as <hook>.duet-backup)"),
      OptionSpec(name: "--hooks-folder", value: "DIR", help: "install into DIR when git runs this repository's hooks from there and it is outside the repository (a global core.hooksPath)"),
      CommandSpec.rootOption,
    ],
    details: "exit codes: 0 done, 1 a hook duet did not write is in the way (or, from the hook, verify failed), 2 a usage error or no git repository\nthe pre-push hook runs 'duet verify --since <the remote's commit>'; a new branch is verified since the remote's default branch; 'git push --no-verify' skips it once"
  )
  static let maxPositionals = 4

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
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

  static func install(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.count == 1 else { throw UsageError(message: "unexpected argument '\(arguments.positionals[1])'", command: "hook") }
    if arguments.flag("--pre-push") && arguments.flag("--pre-commit") {
      throw UsageError(message: "--pre-push and --pre-commit cannot be combined; install one, then the other", command: "hook")
    }
    let kind: GitHook.Kind = arguments.flag("--pre-commit") ? .preCommit : .prePush
    let root = try treeRoot(arguments)
    let duet = arguments.invocation.executable.path
    do {
      switch try GitHook.install(kind, root: root, duetPath: duet, force: arguments.flag("--force"), namedFolder: arguments.value("--hooks-folder")) {
      case .written(let path, let placement):
        console.out("duet hook: wrote \(path); it runs \(placement == .gitFolder ? duet : "the duet on PATH")")
      case .replaced(let path, let backup, let placement):
        console.out("duet hook: moved the hook that was there to \(backup) and wrote \(path); it runs \(placement == .gitFolder ? duet : "the duet on PATH")")
      }
    } catch {
      console.err("duet hook: error: \(error.message)")
      return ExitCode.failed
    }
    console.out(kind == .prePush
      ? "each git push now runs duet verify on the lanes the pushed change touches; git push --no-verify skips it once"
      : "each git commit now runs duet verify on the lanes the change since HEAD touches; git commit --no-verify skips it once")
    return ExitCode.pass
  }

  static func uninstall(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let root = try treeRoot(arguments)
    do {
      let lines = try GitHook.uninstall(root: root)
      if lines.isEmpty { console.out("duet hook: no hook installed; nothing to remove") }
      for line in lines { console.out("duet hook: \(line)") }
      return ExitCode.pass
    } catch {
      console.err("duet hook: error: \(error.message)")
      return ExitCode.usage
    }
  }

  /// What a hook run verifies: the work tree or a temporary checkout of the
  /// pushed commit, and the commit the change is measured from (nil: every lane).
  struct HookTarget {
    var root: URL
    var since: String?
    /// The temporary checkout, removed once verify is done.
    var checkout: URL?
  }

  /// What the installed hook calls: decide the change, then verify it in-process.
  static func runHook(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let kind = arguments.positionals.count > 1 ? arguments.positionals[1] : ""
    let root = try treeRoot(arguments)
    let target: HookTarget
    switch kind {
    case GitHook.Kind.prePush.rawValue:
      switch prePushDecision(arguments, root: root, console: console) {
      case .verify(let found): target = found
      case .stop(let code): return code
      }
    case GitHook.Kind.preCommit.rawValue:
      target = HookTarget(root: root, since: preCommitBase(root: root, console: console))
    default:
      throw UsageError(message: "hook run needs pre-push or pre-commit, got '\(kind)'", command: "hook")
    }
    defer { if let checkout = target.checkout { PushedCommit.remove(checkout, root: root) } }
    var verify = ["--root", target.root.path]
    if let since = target.since { verify += ["--since", since] }
    var invocation = arguments.invocation
    if target.checkout != nil && invocation.environment["DUET_HISTORY"] == nil, let store = HistoryStore.defaultPath(root: root, environment: invocation.environment) {
      // The temporary checkout records into, and is cached from, the tree's own store.
      invocation.environment["DUET_HISTORY"] = store
    }
    let parsed = try ParsedArguments.parse(verify, spec: VerifyCommand.spec, invocation: invocation)
    let code = try VerifyCommand.run(parsed, console: console)
    if target.checkout != nil, let problem = PushedCommit.keepLogs(from: target.root, into: root) {
      console.err("duet hook: warning: \(problem)")
    }
    if code != ExitCode.pass {
      console.err("duet hook: \(kind == "pre-push" ? "push" : "commit") stopped by duet verify (exit \(code)); fix the lanes above, or skip the hook once with --no-verify")
    }
    return code
  }

  /// What the pushed refs decide: verify a target, or end the hook run now
  /// with an exit code (nothing to verify, or no checkout of the pushed commit).
  enum PrePushDecision {
    case verify(HookTarget)
    case stop(Int32)
  }

  /// pre-push: the refs git is pushing (on stdin) decide the change; exactly
  /// what is pushed is verified, in a temporary checkout when the work tree is
  /// anything else.
  static func prePushDecision(_ arguments: ParsedArguments, root: URL, console: Console) -> PrePushDecision {
    var target = HookTarget(root: root)
    let remote = arguments.positionals.count > 2 ? arguments.positionals[2] : "origin"
    let input = String(decoding: arguments.invocation.readStandardInput(), as: UTF8.self)
    let updates = PrePush.parse(input)
    let plan = PrePush.plan(updates, remote: remote) { ProcessOutput.isCommit($0, in: root) }
    switch plan {
    case .nothing(let why):
      console.out("duet hook: \(why); nothing to verify")
      return .stop(ExitCode.pass)
    case .everything(let why):
      console.out("duet hook: verifying every lane: \(why)")
    case .since(let base, let how):
      console.out("duet hook: verifying the change since \(how)")
      target.since = base
    }
    let pushed = Set(updates.map(\.localSHA).filter { !$0.allSatisfy { $0 == "0" } })
    if pushed.count == 1, let commit = pushed.first, let why = PushedCommit.difference(from: commit, root: root) {
      do {
        let made = try PushedCommit.checkOut(commit, root: root)
        target.checkout = made.top
        target.root = made.root
        console.out("duet hook: \(why); verifying \(commit.prefix(12)) in a temporary checkout")
      } catch {
        console.err("duet hook: error: \(error.message)")
        return .stop(ExitCode.failed)
      }
    } else if pushed.count > 1 {
      console.out("duet hook: several commits are being pushed; verifying the work tree")
    }
    return .verify(target)
  }

  /// pre-commit: the change since HEAD, or every lane before the first commit.
  static func preCommitBase(root: URL, console: Console) -> String? {
    guard ProcessOutput.isCommit("HEAD", in: root) else {
      console.out("duet hook: the first commit; verifying every lane")
      return nil
    }
    if let unstaged = ProcessOutput.git(["diff", "--name-only"], in: root), !unstaged.isEmpty {
      console.out("duet hook: note: some changes are not staged; duet verifies the work tree, staged or not")
    }
    return "HEAD"
  }
}
