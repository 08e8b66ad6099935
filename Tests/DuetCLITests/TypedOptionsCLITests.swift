import Foundation
import Testing

/// Issue 42, item 2: options read through typed keys say what they said when
/// they were read by spelling, byte for byte: each kind of key (a number, a
/// duration, a value's raw text, "was it given", a flag with `=FILE`) and the
/// option combinations checked through them.
@Suite("Typed options keep their usage errors")
struct TypedOptionsCLITests {
  /// Each command line and the one error line it must print before the pointer to help.
  static let cases: [(arguments: [String], error: String)] = [
    (["verify", "--jobs", "0"], "duet verify: error: --jobs needs a whole number above 0, got '0'"),
    (["verify", "-jx"], "duet verify: error: --jobs needs a whole number above 0, got 'x'"),
    (["verify", "--timeout", "5x"], "duet verify: error: --timeout needs a duration such as 90s, 10m or 1h, got '5x'"),
    (["verify", "--shard", "1/2", "--tag", "t"], "duet verify: error: --shard and --tag cannot be combined"),
    (["verify", "--watch", "--shard", "1/2"], "duet verify: error: --watch and --shard cannot be combined: --watch runs again the lanes each change affects"),
    (["verify", "--watch", "--since", "main"], "duet verify: error: --watch and --since cannot be combined: --watch runs again the lanes each change affects"),
    (["verify", "--dry-run", "--junit", "x.xml"], "duet verify: error: --dry-run and --junit cannot be combined: a dry run has no results to report"),
    (["verify", "--timings="], "duet verify: error: --timings=FILE needs a file path"),
    (["history", "--limit", "-3"], "duet history: error: --limit needs a whole number above 0, got '-3'"),
    (["report", "--last", "0"], "duet report: error: --last needs a whole number above 0, got '0'"),
    (["flaky", "--since", "7"], "duet flaky: error: --since needs a unit: 7d, 12h or 30m, got '7' (days, hours or minutes?)"),
    (["flaky", "--since", "7y"], "duet flaky: error: --since needs a duration such as 90s, 10m or 1h, got '7y'"),
    (["quarantine", "list", "--until", "2027-01-01"], "duet quarantine: error: --reason and --until go with add"),
    (["workflow", "gitlab", "--duet-git", "x"], "duet workflow: error: --duet-git is for github; the GitLab pipeline reads the CI/CD variable DUET_GIT_URL"),
    (["cache", "stats", "--max-size", "2G"], "duet cache: error: --max-size goes with prune"),
    (["mocks", "--check", "--accept-body"], "duet mocks: error: --accept-body writes files; it cannot go with --check"),
  ]

  @Test func eachKindOfKeySaysWhatItSaid() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true', tags: [t]}\n")
    for (arguments, error) in Self.cases {
      let run = try tree.duet(arguments: arguments)
      let command = arguments[0]
      #expect(run.status == 2, "\(arguments)")
      #expect(run.stderr == "\(error)\nrun 'duet \(command) --help' for usage\n", "\(arguments)")
    }
  }
}
