import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// What `duet verify --help`, the man page and the completions add to verify's
/// spec: its exit codes as a table and its examples. Kept apart from Verify.swift
/// so the run and its documentation change independently; the exit codes move out
/// of the spec's `details` so they are listed once.
extension VerifyCommand {
  static var documentedSpec: CommandSpec {
    var documented = spec
    documented.details = spec.details.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("exit codes:") }
      .joined(separator: "\n")
    documented.exitCodes = [
      ExitCodeDoc(code: 0, meaning: "every lane passed (flaky, cached and skipped lanes included)"),
      ExitCodeDoc(code: 1, meaning: "a lane failed or timed out, --strict found changed tracked files, or --junit could not be written"),
      ExitCodeDoc(code: 2, meaning: "a usage or manifest error (nothing runs)"),
      ExitCodeDoc(code: 130, meaning: "interrupted (Ctrl-C)"),
    ]
    documented.examples = [
      HelpExample(command: "duet verify", what: "run every lane, in parallel, and say PASS or FAIL"),
      HelpExample(command: "duet verify --lane kotlin --dry-run", what: "show what running the kotlin lane (and what it needs) would start, and why"),
    ]
    return documented
  }
}
