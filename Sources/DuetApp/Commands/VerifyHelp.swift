import DuetCommandLine
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
    documented.exitCodes = [0: "every lane passed (flaky, cached and skipped lanes included)",
                            1: "a lane failed or timed out, --strict found changed tracked files, or --junit could not be written",
                            2: "a usage or manifest error (nothing runs)", 130: "interrupted (Ctrl-C)"]
    documented.examples = ["duet verify": "run every lane, in parallel, and say PASS or FAIL",
                           "duet verify --lane kotlin --dry-run": "show what running the kotlin lane (and what it needs) would start, and why"]
    return documented
  }
}
