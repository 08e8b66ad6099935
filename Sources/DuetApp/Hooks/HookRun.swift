import DuetAdopt
import DuetProcess
import DuetRun
import DuetHooks
import DuetSupport
import Foundation
import DuetHistory

/// `duet hook run pre-push|pre-commit`: what the installed hook calls. The
/// change is decided here (the pushed refs on standard input, or the change
/// since HEAD), then verify is called with a request built for it: no
/// command line is made and read back.
struct HookRunRequest: Sendable {
  var root: URL
  /// `pre-push` or `pre-commit`, as git names the hook.
  var kind: String
  /// The remote git pushes to (pre-push's first argument).
  var remote = "origin"
  /// What git wrote on the hook's standard input: the refs being pushed.
  var standardInput = Data()
  /// The invocation's environment: the lanes inherit it, and `DUET_HISTORY` and `DUET_SKIP` are read from it.
  var environment: [String: String]
  /// As for `VerifyRequest`: the version and built-in identity, what the history's `runs.command` says, and the subreaper.
  var duetVersion: String
  var builtinIdentity: (@Sendable () -> String)?
  var commandLine = "duet hook run"
  var reapOrphans = false

  init(root: URL, kind: String, environment: [String: String], duetVersion: String) {
    self.root = root
    self.kind = kind
    self.environment = environment
    self.duetVersion = duetVersion
  }

  /// The verify of `target`: every lane, or the change since its base.
  func verifyRequest(_ target: HookTarget) -> VerifyRequest {
    // In a temporary checkout, git (duet's and the lanes') finds that checkout,
    // not the repository the hook was called from.
    var environment = target.checkout == nil ? self.environment : ProcessOutput.outsideRepository(self.environment)
    if target.checkout != nil && environment[.history] == nil, let store = HistoryStore.defaultPath(root: root, environment: environment) {
      // The temporary checkout records into, and is cached from, the tree's own store.
      environment[.history] = store
    }
    var request = VerifyRequest(root: target.root, duetVersion: duetVersion, environment: environment)
    request.changes(since: target.since, upstream: false)
    request.reports = VerifyReports(junitPath: nil, environment: environment)
    request.commandLine = commandLine
    request.builtinIdentity = builtinIdentity
    request.reapOrphans = reapOrphans
    return request
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

/// The hook's end: stopped before verify (nothing to verify, or no checkout of
/// the pushed commit), or verify's response and what the hook adds after it.
enum HookRunResponse: CommandResponse {
  case stopped(Int32)
  case verified(VerifyResponse, request: VerifyRequest, after: Printout)

  var exitCode: Int32 {
    switch self {
    case .stopped(let code): return code
    case .verified(let response, _, _): return response.exitCode
    }
  }

  func printout(_ format: TextFormat) -> Printout {
    guard case .verified(let response, let request, let after) = self else { return Printout() }
    var printout = response.printout(format, request: request)
    printout.append(after)
    return printout
  }
}

/// Runs the hook: decides the change, says what it decided through `say`
/// (before the run, so it reads above the progress), verifies, and returns.
/// Throws `UsageError` for a kind it does not know, and what verify throws.
func hookRun(_ request: HookRunRequest, observer: VerifyObserver = .silent,
                    signals: SignalGuard = { _, body in body() }, say: (Printout) -> Void = { _ in }) throws -> HookRunResponse {
  let target: HookTarget
  switch request.kind {
  case GitHook.Kind.prePush.rawValue:
    switch HookDecision.prePush(request, say: say) {
    case .verify(let found): target = found
    case .stop(let code): return .stopped(code)
    }
  case GitHook.Kind.preCommit.rawValue:
    switch HookDecision.preCommit(request, say: say) {
    case .verify(let found): target = found
    case .stop(let code): return .stopped(code)
    }
  default:
    throw UsageError(message: "hook run needs pre-push or pre-commit, got '\(request.kind)'", command: "hook")
  }
  defer { if let checkout = target.checkout { PushedCommit.remove(checkout, root: request.root, environment: request.environment) } }
  if target.checkout != nil, let kind = GitHook.Kind(rawValue: request.kind),
     let why = ManifestInGit.missingFromCheckout(target.root, root: request.root, kind: kind, environment: request.environment) {
    say(.errorLine("duet hook: error: \(why)"))
    return .stopped(ExitCode.usage)
  }
  let verifyRequest = request.verifyRequest(target)
  let response = try verify(verifyRequest, observer: observer, signals: signals)
  var after = Printout()
  if target.checkout != nil, let problem = PushedCommit.keepLogs(from: target.root, into: request.root) {
    after.err("duet hook: warning: \(problem)")
  }
  if response.exitCode != ExitCode.pass {
    after.err("duet hook: \(request.kind == "pre-push" ? "push" : "commit") stopped by duet verify (exit \(response.exitCode)); fix the lanes above, or skip the hook once with --no-verify")
  }
  return .verified(response, request: verifyRequest, after: after)
}

/// What the hook decides before verify runs.
enum HookDecision {
  /// Verify a target, or end the hook run now with an exit code.
  enum PrePushDecision {
    case verify(HookTarget)
    case stop(Int32)
  }

  /// pre-push: the refs git is pushing decide the change; exactly what is
  /// pushed is verified, in a temporary checkout when the work tree is anything else.
  static func prePush(_ request: HookRunRequest, say: (Printout) -> Void) -> PrePushDecision {
    let root = request.root
    var target = HookTarget(root: root)
    let updates = PrePush.parse(String(decoding: request.standardInput, as: UTF8.self))
    switch PrePush.plan(updates, remote: request.remote, commitExists: { ProcessOutput.isCommit($0, in: root, environment: request.environment) }) {
    case .nothing(let why):
      say(.line("duet hook: \(why); nothing to verify"))
      return .stop(ExitCode.pass)
    case .everything(let why):
      say(.line("duet hook: verifying every lane: \(why)"))
    case .since(let base, let how):
      say(.line("duet hook: verifying the change since \(how)"))
      target.since = base
    }
    let pushed = Set(updates.map(\.localSHA).filter { !$0.allSatisfy { $0 == "0" } })
    if pushed.count == 1, let commit = pushed.first, let why = PushedCommit.difference(from: commit, root: root, environment: request.environment) {
      do {
        let made = try PushedCommit.checkOut(commit, root: root, environment: ProcessOutput.outsideRepository(request.environment))
        target.checkout = made.top
        target.root = made.root
        say(.line("duet hook: \(why); verifying \(commit.prefix(12)) in a temporary checkout"))
      } catch {
        say(.errorLine("duet hook: error: \(error.message)"))
        return .stop(ExitCode.failed)
      }
    } else if pushed.count > 1 {
      say(.line("duet hook: several commits are being pushed; verifying the work tree"))
    }
    return .verify(target)
  }

  /// pre-commit: the change the commit makes since HEAD, verified on what is
  /// committed: in a temporary checkout of HEAD with the index applied when the
  /// work tree holds more (unstaged edits, untracked files); every lane, in
  /// the work tree, before the first commit.
  static func preCommit(_ request: HookRunRequest, say: (Printout) -> Void) -> PrePushDecision {
    let root = request.root
    guard ProcessOutput.isCommit("HEAD", in: root, environment: request.environment) else {
      say(.line("duet hook: the first commit; verifying every lane"))
      return .verify(HookTarget(root: root, since: nil))
    }
    var target = HookTarget(root: root, since: "HEAD")
    if let why = StagedCommit.difference(root: root, environment: request.environment) {
      do {
        let made = try StagedCommit.checkOut(root: root, environment: request.environment)
        target.checkout = made.top
        target.root = made.root
        say(.line("duet hook: \(why); verifying what is staged, in a temporary checkout"))
      } catch {
        say(.errorLine("duet hook: error: \(error.message)"))
        return .stop(ExitCode.failed)
      }
    }
    return .verify(target)
  }
}
