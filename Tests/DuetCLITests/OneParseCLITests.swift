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
