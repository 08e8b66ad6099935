import Foundation
import Testing
@testable import DuetApp
@testable import DuetSupport

/// Issue 54, item 11: a command line is parsed and checked in one step, before
/// the command runs: each option's value (a number, a duration) whatever the
/// command goes on to read, then the lane names.
@Suite("A command line is parsed and checked in one step")
struct OneParseCLITests {
  /// `--limit` is read only by the listing, yet `prune --limit 0` is refused
  /// too (it used to be ignored): the parse checks every value given.
  @Test func everyValueIsCheckedWhateverTheCommandReads() throws {
    let invocation = Invocation(arguments: [], workingDirectory: URL(fileURLWithPath: "/"), environment: [:], standardInput: nil,
                                executable: URL(fileURLWithPath: "/duet"), ownsProcess: false)
    let error = #expect(throws: UsageError.self) {
      _ = try ParsedArguments<HistoryCommand>.parse(["prune", "--limit", "0"], invocation: invocation)
    }
    #expect(error?.message == "--limit needs a whole number above 0, got '0'")
    #expect(throws: UsageError.self) { _ = try ParsedArguments<VerifyCommand>.parse(["--timeout", "5x"], invocation: invocation) }
    // `--help` shows the help whatever else the line holds.
    #expect(try ParsedArguments<VerifyCommand>.parse(["--jobs", "0", "--help"], invocation: invocation).wantsHelp)
  }

  /// A bad value is named before an unknown lane: the options first, then the lanes.
  @Test func valuesAreCheckedBeforeLanes() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: kotlin, sh: echo ok}\n")
    let run = try tree.duet("verify", "--lane", "kotln", "--jobs", "0")
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("duet verify: error: --jobs needs a whole number above 0, got '0'\n"), "\(run.stderr)")
  }
}

/// Issue 54, item 11 (a): each value a command checks is checked in the one
/// parse step, by the option's key: a bad one is named before an unknown lane
/// (which is named before the options that cannot go together, as
/// `LaneNamesCLITests` wants), and before the tree is looked for.
@Suite("Every option's value is checked in the parse step")
struct OptionValuesCLITests {
  static let strictFlaky = "--strict takes no value, or =flaky (run again a lane whose cached pass came only on a retry), got 'flakey'"

  /// Each line names an unknown lane and gives a bad value: the value is what is named.
  @Test(arguments: [
    (["verify", "--lane", "kotln", "--shard", "9/3"], "duet verify: error: --shard needs I/N with 1 <= I <= N, such as 2/3, got '9/3'"),
    (["verify", "--lane", "kotln", "--strict=flakey"], "duet verify: error: \(strictFlaky)"),
    (["verify", "--lane", "kotln", "--since", "-x"], "duet verify: error: --since needs a git ref such as origin/main, got '-x'"),
    (["verify", "--lane", "kotln", "--upstream", "job"],
     "duet verify: error: --upstream needs JOB=STORE, such as linux-1=.duet/upstream/history-linux-1.sqlite, got 'job'"),
    (["verify", "--lane", "kotln", "--junit", ""], "duet verify: error: --junit needs a file path"),
    (["verify", "--lane", "kotln", "--timings="], "duet verify: error: --timings=FILE needs a file path"),
    (["flaky", "--tests", "--lane", "kotln", "--since", "7"],
     "duet flaky: error: --since needs a unit: 7d, 12h or 30m, got '7' (days, hours or minutes?)"),
    (["verify", "--lane", "kotln", "--remote-cache", "ftp://x"], "duet verify: error: --remote-cache: expected an http:// or https:// URL, got \"ftp://x\""),
    (["quarantine", "add", "--lane", "kotln", "--reason", "r", "--until", "2027-02-30"],
     "duet quarantine: error: --until needs a real date written YYYY-MM-DD, got '2027-02-30'"),
    (["deflake", "kotln", "--runs", "2", "--test", ""], "duet deflake: error: --test needs a test's name (classname.name)"),
    (["quarantine", "suggest", "--lane", "kotln", "--below", "0%"],
     "duet quarantine: error: --below needs a percentage above 0 and at most 100, such as 5%, got '0%'"),
    (["report", "--last", "0", "--html", "x"], "duet report: error: --last needs a whole number above 0, got '0'"),
  ])
  func aBadValueIsNamedBeforeAnUnknownLane(arguments: [String], expected: String) throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: kotlin, sh: echo ok}\n")
    let run = try tree.duet(arguments: arguments)
    #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
    #expect(run.stderr == expected + "\nrun 'duet \(arguments[0]) --help' for usage\n", "\(arguments)")
  }

  /// Outside any tree a bad value is named, not the missing tree: it is read before the tree is looked for.
  @Test(arguments: [
    (["workflow", "github", "--runner-start", "soon"], "duet workflow: error: --runner-start needs a duration such as 60, 90s or 2m, got 'soon'"),
    (["cache", "stats", "--max-size", "5X"], "duet cache: error: --max-size needs a size such as 500M or 2G, got '5X'"),
    (["cache", "prune", "--max-size", "5X"], "duet cache: error: --max-size needs a size such as 500M or 2G, got '5X'"),
    (["quarantine", "suggest", "--below", "200%"],
     "duet quarantine: error: --below needs a percentage above 0 and at most 100, such as 5%, got '200%'"),
    (["graph", "--format", "svg"], nil),
    (["workflow", "github", "--duet-git", ""], "duet workflow: error: --duet-git needs a git URL on one line"),
    (["trace", "--html", ""], "duet trace: error: --html needs a file path"),
    (["design-tokens", "--check", "--rewrite"], "duet design-tokens: error: --check writes nothing, so it cannot --rewrite; pass one of them"),
  ] as [([String], String?)])
  func aBadValueIsNamedBeforeTheTreeIsLookedFor(arguments: [String], expected: String?) throws {
    let empty = try FixtureTree()
    let run = try empty.duet(arguments: arguments)
    #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
    #expect(!run.stderr.contains("any folder above it"), "\(arguments): \(run.stderr)")
    if let expected { #expect(run.stderr == expected + "\nrun 'duet \(arguments[0]) --help' for usage\n", "\(arguments)") }
  }
}
