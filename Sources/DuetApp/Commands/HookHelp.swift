import DuetCommandLine
import DuetSupport

/// What `duet hook --help`, the man page and the completions add to hook's spec:
/// its exit codes as a table, its subcommands for completion and its examples,
/// kept apart from Hook.swift as VerifyHelp.swift is from Verify.swift.
extension HookCommand {
  static var documentedSpec: CommandSpec {
    var documented = spec
    documented.details = spec.details.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("exit codes:") }
      .joined(separator: "\n")
    documented.positionals = [.words(["install", "uninstall"]), .none]
    documented.exitCodes = [0: "done", 1: "a hook duet did not write is in the way (or, from the hook, verify failed)",
                            2: "a usage error, or no git repository"]
    documented.examples = ["duet hook install": "verify what each git push sends before it leaves", "duet hook uninstall": "remove the hook duet wrote"]
    return documented
  }
}
